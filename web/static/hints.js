// Hints for the players, on the phone: "What would the table do?" shows the search's best three actions with
// their estimated chance to win and a band, each lit on the board by its number; "Why?" (or a second tap) says
// why in one sentence each; "Show threat" shades each space by how often a guard sees it (and rings where a
// guard may stand) after the next corporation turn. The table thinks in a worker process: the page asks
// (POST /api/hint, /api/threat), the live feed brings the progress and the answer ("hint" messages), and an
// answer about a position the game has left is not shown. docs/dashboard.md, "Hints and the threat overlay".
import { $, api, h, s } from "./dom.js";

/** The booth explains itself: while the table plays itself with a player that says why (the search), its reason
 *  for the last action comes in the players' health (`why`) and is shown under the summary. */
export function drawWhy(health) {
  const players = health && health.components && health.components.players;
  const why = players && players.why;
  const line = $("booth-why");
  line.hidden = !why;
  line.textContent = why ? `Why: ${why}` : "";
}

const PCT = (x) => `${Math.round(100 * x)}%`;
const LAYERS = ["threat-shade", "hint-marks"];  // drawn above the floor and the units, below the coordinates

export class Hints {
  constructor(store, controls, say) {
    Object.assign(this, { store, controls, say });
    this.hint = null;       // the last hint view for this position
    this.threat = null;     // the last threat view for this position
    this.why = false;
    this.showThreat = false;
    this.svg = $("board");
    $("hint-ask").addEventListener("click", () => this.ask());
    $("hint-why").addEventListener("click", () => this.toggleWhy());
    $("threat-toggle").addEventListener("click", () => this.toggleThreat());
    // the board redraws its whole picture after a change: the layers are put back on it
    new MutationObserver(() => this.drawLayers()).observe(this.svg, { childList: true });
    // a phone unlocked may ask: the table starts its worker now, so the first answer comes within its budget
    this.warmed = false;
    const warm = () => {
      if (this.warmed || !this.controls.player) return;
      this.warmed = true;
      api("POST", "/api/hint/warm");
    };
    new MutationObserver(warm).observe(document.body, { attributes: true, attributeFilter: ["class"] });
  }

  get number() { return this.store.status.number; }

  /** Whether the players have a decision now (no hint in the corporation's turn or after the game). */
  get playersTurn() {
    const state = this.store.state;
    return Boolean(state && state.outcome == null && state.turn && state.turn.step !== "corporation");
  }

  /** After each change: the question offered or not, an answer about another position dropped, the threat asked
   *  again for the new position while it is shown. */
  refresh() {
    $("hint-ask").disabled = !this.playersTurn;  // (a phone without the PIN is not shown the panel: hints.css)
    $("threat-toggle").disabled = !this.store.state || this.store.state.outcome != null;
    if (this.hint && this.hint.number !== this.number) this.hint = null;
    if (this.threat && this.threat.number !== this.number) {
      this.threat = null;
      if (this.showThreat) this.askThreat();
    }
    this.draw();
  }

  async ask() {
    if (this.hint && this.hint.status === "ready") { this.toggleWhy(); return; }  // the second tap: why
    this.hint = { kind: "hint", number: this.number, status: "thinking", progress: 0 };
    this.draw();
    const r = await api("POST", "/api/hint");
    if (!r.ok) { this.hint = null; this.say(r.body.message, true); this.draw(); return; }
    this.take(r.body);
  }

  async askThreat() {
    const r = await api("POST", "/api/threat");
    if (!r.ok) { this.say(r.body.message, true); return; }
    this.take(r.body);
  }

  toggleWhy() {
    this.why = !this.why;
    this.draw();
  }

  toggleThreat() {
    this.showThreat = !this.showThreat;
    if (this.showThreat && !(this.threat && this.threat.number === this.number)) this.askThreat();
    this.draw();
  }

  /** A question's view, from the live feed or a route's answer: kept if it is about this position. */
  take(view) {
    if (view.number !== this.number) return;
    const held = view.kind === "hint" ? this.hint : this.threat;
    if (view.kind === "hint" && !held) return;  // a hint another phone asked for: this one did not ask
    if (held && held.status === "ready" && view.status === "thinking") return;
    if (view.kind === "hint") this.hint = view; else this.threat = view;
    this.draw();
  }

  draw() {
    const hint = this.hint, thinking = hint && hint.status === "thinking";
    const ready = hint && hint.status === "ready" && hint.hint;
    const progress = $("hint-progress");
    progress.hidden = !thinking;
    progress.value = thinking ? hint.progress : 0;
    $("hint-ask").textContent = thinking ? "Thinking…" : "What would the table do?";
    $("hint-why").hidden = !ready;
    $("hint-why").setAttribute("aria-pressed", String(this.why));
    $("threat-toggle").setAttribute("aria-pressed", String(this.showThreat));
    $("threat-toggle").textContent = this.showThreat ? "Hide threat" : "Show threat";
    $("hint-list").replaceChildren(...(ready ? hint.hint.actions.map((a, k) => this.item(a, k)) : []));
    let note = "";
    if (hint && (hint.status === "failed" || hint.status === "cancelled")) note = `No hint: ${hint.message}.`;
    else if (ready && !hint.hint.searched) note = "The only sensible action: nothing to weigh.";
    else if (ready) note = `From ${hint.hint.futures} sampled futures in ${hint.seconds.toFixed(1)} s.`;
    const threat = this.threat;
    if (this.showThreat) {
      note += threat && threat.status === "ready"
        ? ` Threat: shaded by how often a guard sees the space after the next corporation turn (${threat.samples} `
          + "sampled turns); ringed where a guard may stand."
        : " Threat: sampling the corporation's turn…";
    }
    $("hint-note").textContent = note.trim();
    this.drawLayers();
  }

  /** One of the best actions: its number (as marked on the board), what it does, its chance and band, why. */
  item(option, k) {
    const space = option.space;
    const band = h("span", { class: "band", "aria-hidden": "true" },
                   h("span", { class: "band-range", style: null }), h("span", { class: "band-chance" }));
    band.firstChild.style.left = PCT(option.low);
    band.firstChild.style.width = PCT(Math.max(0.01, option.high - option.low));
    band.lastChild.style.left = PCT(option.chance);
    return h("li", { class: "hint-action", "data-hint": k + 1, "data-space": space },
             h("span", { class: "hint-what" }, `${k + 1}. ${option.text}`),
             h("span", { class: "hint-chance" }, `${PCT(option.chance)} to win (${PCT(option.low)}–${PCT(option.high)})`),
             band,
             this.why ? h("span", { class: "hint-why" }, option.reason) : null);
  }

  /** The hint's numbered marks and the threat's shade, over the board as drawn. */
  drawLayers() {
    const svg = this.svg;
    if (!svg.querySelector("rect.space")) return;
    const marks = this.marks(), shade = this.shade();
    const old = LAYERS.map((c) => svg.querySelector(`:scope > g.${c}`));
    if (old[0] && old[1] && old[0].dataset.key === shade.dataset.key && old[1].dataset.key === marks.dataset.key) return;
    for (const layer of old) if (layer) layer.remove();
    const edges = svg.querySelector(":scope > .coordinates");
    svg.insertBefore(shade, edges);
    svg.insertBefore(marks, edges);
  }

  rectOf(space) {
    const rect = space && this.svg.querySelector(`rect.space[data-space="${CSS.escape(space)}"]`);
    return rect && ["x", "y", "width", "height"].map((k) => Number(rect.getAttribute(k)));
  }

  marks() {
    const hint = this.hint, ready = hint && hint.status === "ready" && hint.hint;
    const options = ready ? hint.hint.actions : [];
    const placed = new Map();  // two actions on one space: their marks side by side
    const g = s("g", { class: "hint-marks", "aria-hidden": "true", "data-key": `${this.number}:${options.length}` });
    options.forEach((option, k) => {
      const space = option.space, r = this.rectOf(space);
      if (!r) return;
      const n = placed.get(space) || 0;
      placed.set(space, n + 1);
      const cx = r[0] + r[2] * (0.24 + 0.52 * (n % 2)), cy = r[1] + r[3] * (0.24 + 0.52 * Math.floor(n / 2));
      g.append(s("g", { class: `hint-mark hint-${k + 1}`, "data-space": space, "data-hint": k + 1 },
                 s("circle", { cx, cy, r: r[2] * 0.24 }),
                 s("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central" }, String(k + 1))));
    });
    return g;
  }

  shade() {
    const threat = this.threat, shown = this.showThreat && threat && threat.status === "ready" && threat.threat;
    const g = s("g", { class: "threat-shade", "aria-hidden": "true", "data-key": shown ? `${threat.number}` : "off" });
    if (!shown) return g;
    for (const [space, [guard, seen]] of Object.entries(threat.threat)) {
      if (guard <= 0 && seen <= 0) continue;
      const r = this.rectOf(space);
      if (!r) continue;
      g.append(s("rect", { class: "threat-seen", x: r[0], y: r[1], width: r[2], height: r[3], "data-space": space,
                           "data-seen": seen.toFixed(2), "data-guard": guard.toFixed(2),
                           "fill-opacity": (0.08 + 0.42 * seen).toFixed(2) }));
      if (guard > 0) {
        g.append(s("circle", { class: "threat-guard", cx: r[0] + r[2] / 2, cy: r[1] + r[3] / 2, r: r[2] * 0.42,
                               "stroke-opacity": (0.35 + 0.65 * guard).toFixed(2) }));
      }
    }
    return g;
  }
}
