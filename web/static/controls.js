// Changing the game from the page: the PIN, the legal actions as buttons (their choices asked before posting),
// dice typed in with a picture of each die, next / corporation turn / undo / redo, corrections by dragging a
// unit, and a new game. Every request goes to the table's own JSON API; a refusal's message is shown as text.
import { $, api, h, s, words } from "./dom.js";

const COMPASS = { N: "north", E: "east", S: "south", W: "west" };
const DIE_COLOURS = { basic: ["#f2f2f2", "#111"], advanced: ["#3d7fd6", "#fff"], elite: ["#d6a93d", "#111"],
                      ping: ["#c23b3b", "#fff"], burncycle: ["#222", "#ff9a3d"], keypad: ["#2f8f5b", "#fff"],
                      surveillance: ["#6a3fb0", "#fff"], equipment: ["#8a8f96", "#111"] };

/** A die as a picture: a rounded square in the die's colour, its face as printed (pips for 1 to 6). */
export function diePicture(kind, face) {
  const [fill, ink] = DIE_COLOURS[kind] || ["#ccc", "#111"];
  const pips = { 1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
                 4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
                 6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]] }[face];
  const marks = pips ? pips.map(([cx, cy]) => s("circle", { cx, cy, r: 8, fill: ink }))
    : [s("text", { x: 50, y: 54, "text-anchor": "middle", "dominant-baseline": "middle", fill: ink,
                   "font-size": face.length > 6 ? 13 : 20, "font-weight": 700 }, face.replace("+", " + "))];
  return s("svg", { viewBox: "0 0 100 100", class: "face-picture", role: "img", "aria-label": `${kind} die: ${face}` },
           s("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, fill, stroke: "#000", "stroke-width": 3 }), marks);
}

// the fields of an action that tell two buttons of one kind apart, in the order people say them
const WHAT = ["upgrade", "approach", "card", "chip", "slot", "source", "equipment", "mod"];
const WHERE = ["to", "unit", "beyond", "space", "node"];

/** An action's title for its button: what it is, who does it, and where. */
function title(legal, bots) {
  const a = legal.action;
  const who = legal.bot ? (bots.get(legal.bot) || legal.bot) : "";
  const what = WHAT.filter((f) => typeof a[f] === "string" || typeof a[f] === "number").map((f) => words(a[f]));
  const where = WHERE.map((f) => a[f]).find((v) => typeof v === "string");
  return [words(legal.tag), what.length ? ` (${what.join(", ")})` : "", who ? `: ${who}` : "",
          where ? ` → ${where}` : ""].join("");
}

/** What an action costs, as badges (AP, power, threat, keys, a durability to beat) and what must be chosen. */
function costs(legal) {
  const c = legal.cost, badges = [];
  if (c.ap) badges.push(`${c.ap} AP`);
  if (c.power) badges.push(c.power > 0 ? `${c.power} power` : `+${-c.power} power`);
  if (c.threat) badges.push(`+${c.threat} threat`);
  if (c.keys) badges.push(`${c.keys} key${c.keys === 1 ? "" : "s"}`);
  if (legal.target_ap !== null) badges.push(`needs ${legal.target_ap} AP`);
  if (!badges.length && legal.label === "free") badges.push("free");
  return badges;
}

function costBadges(legal, badges) {
  const needs = legal.choose.map((f) => h("span", { class: "needs" }, `choose ${words(f)}`));
  return h("span", { class: "cost" }, badges.map((b) => h("span", {}, b)), needs);
}

/** The inputs for the fields `choose` names; `read()` gives the action with them filled in. */
function choiceForm(legal) {
  const action = structuredClone(legal.action);
  const readers = [];
  const parts = [];
  for (const field of legal.choose) {
    if (field === "dice") {
      for (const die of legal.dice) {
        const input = h("input", { type: "number", min: 0, max: die.most, value: (action.dice || {})[die.field] || 0,
                                   name: `dice-${die.field}` });
        parts.push(h("label", {}, `${die.die}s (up to ${die.most}; faces ${die.faces.join(", ")})`), input);
        readers.push(() => { action.dice[die.field] = Number(input.value) || 0; });
      }
    } else if (field === "payers") {
      for (const [bot, most] of Object.entries(legal.payers)) {
        const input = h("input", { type: "number", min: 0, max: most, value: (action.payers || {})[bot] || 0,
                                   name: `payer-${bot}` });
        parts.push(h("label", {}, `${bot} pays (up to ${most} power)`), input);
        readers.push(() => {
          const n = Number(input.value) || 0;
          if (n) action.payers[bot] = n; else delete action.payers[bot];
        });
      }
    } else if (legal.options[field]) {
      const choices = legal.options[field];
      if (Array.isArray(action[field])) {
        const boxes = choices.map((c) => h("input", { type: "checkbox", value: JSON.stringify(c), name: field,
                                                      checked: action[field].some((v) => JSON.stringify(v) === JSON.stringify(c)) }));
        parts.push(h("label", {}, words(field)),
                   h("div", { class: "row" }, choices.map((c, i) => h("label", {}, boxes[i], ` ${JSON.stringify(c).replaceAll('"', "")}`))));
        readers.push(() => { action[field] = boxes.filter((b) => b.checked).map((b) => JSON.parse(b.value)); });
      } else {
        const select = h("select", { name: field },
                         action[field] === null ? h("option", { value: "null" }, "none") : null,
                         choices.map((c) => h("option", { value: JSON.stringify(c), selected: c === action[field] },
                                              String(c))));
        parts.push(h("label", {}, words(field)), select);
        readers.push(() => { action[field] = JSON.parse(select.value); });
      }
    } else {
      const input = h("input", { type: "text", name: field, value: JSON.stringify(action[field]) });
      parts.push(h("label", {}, `${words(field)} (as JSON)`), input);
      readers.push(() => { action[field] = JSON.parse(input.value); });
    }
  }
  return { parts, read: () => { readers.forEach((r) => r()); return action; } };
}

export class Controls {
  constructor(store, say) {
    this.store = store;
    this.say = say;
    this.kinds = new Map();
    this.typed = [];
    this.selected = null;
    this.legalNumber = null;
    $("pin-form").addEventListener("submit", (e) => { e.preventDefault(); this.logIn(); });
    $("next").addEventListener("click", () => this.post("POST", "/api/next"));
    $("corp").addEventListener("click", () => this.post("POST", "/api/corporation-turn"));
    $("undo").addEventListener("click", () => this.post("POST", "/api/undo"));
    $("redo").addEventListener("click", () => this.post("POST", "/api/redo"));
    $("dice-mode").addEventListener("change", (e) => this.post("PUT", "/api/dice/mode", { mode: e.target.value }));
    $("lock").addEventListener("click", async () => { await api("DELETE", "/api/session"); this.checkSession(); });
  }

  get player() { return this.store.session.player && !this.store.session.read_only; }

  async checkSession() {
    const r = await api("GET", "/api/session");
    if (r.ok) this.store.session = r.body;
    this.draw();
    if (this.player) {
      this.loadOptions();
      this.legalNumber = null;
      this.refresh();
    }
  }

  async logIn() {
    const input = $("pin-input");
    const r = await api("POST", "/api/session", { pin: input.value });
    input.value = "";
    if (!r.ok) { this.say(r.body.message, true); return; }
    this.say("Unlocked: this phone may change the game.");
    await this.checkSession();
  }

  async post(method, path, body) {
    const r = await api(method, path, body);
    if (!r.ok) {
      this.say(r.body.message, true);
      if (r.status === 401) this.checkSession();
      return null;
    }
    const change = r.body.change;
    const said = (change && change.instructions) || [];
    this.say(said.length > 2 ? `${said.slice(0, 2).join(" ")} … (the rest under What happened)` : said.join(" ") || "Done.");
    $("choices").hidden = true;
    return r.body;
  }

  /** One of the table view's questions answered with one of its options (which way a lifted bot went, or that
   *  its chip is right); the live feed then brings the steps and the new table view. */
  async answer(question, option) {
    const r = await api("POST", `/api/questions/${encodeURIComponent(question)}/answer`, { option });
    if (!r.ok) {
      this.say(r.body.message, true);
      if (r.status === 401) this.checkSession();
      return;
    }
    this.say("Answered: the game follows the way chosen.");
  }

  /** After each change: the legal actions again (when this phone may act), the dice asked for. */
  async refresh() {
    this.draw();
    const number = this.store.status.number;
    if (!this.player || !this.store.state || this.legalNumber === number) return;
    this.legalNumber = number;
    const r = await api("GET", "/api/legal");
    if (!r.ok || r.body.number !== this.store.status.number) return;
    this.legal = r.body.actions;
    this.drawActions(r.body.actions);
    document.dispatchEvent(new CustomEvent("legal", { detail: r.body.actions }));  // the board lights targets
  }

  draw() {
    const player = this.player, ro = this.store.session.read_only;
    document.body.classList.toggle("player", Boolean(player));
    $("who").textContent = player ? "unlocked: this phone plays" : (ro ? "a spectators' table" : "watching");
    $("pin").hidden = player || ro;
    $("steps").hidden = !player;
    if (ro) this.say("A spectators' table: the game is watched here, not changed.");
    const status = this.store.status || {};
    $("undo").disabled = !status.can_undo;
    $("redo").disabled = !status.can_redo;
    if (status.dice_mode) $("dice-mode").value = status.dice_mode;
    const state = this.store.state;
    $("corp").hidden = !(state && state.turn.step === "corporation");
    if (!player) {
      $("actions").replaceChildren();
      $("new-game-panel").hidden = true;
    }
    this.drawDice(player ? status.pending_dice : null);
    this.drawTurnUnit();
  }

  drawActions(actions) {
    const bots = new Map((this.store.state ? this.store.state.bots : []).map((b) => [b.id, b.name]));
    $("actions").replaceChildren(...actions.map((legal) => {
      const badges = costs(legal);
      return h("button", { type: "button", class: "action", "data-tag": legal.tag, "data-index": legal.index,
                           onclick: () => this.choose(legal) },
               h("span", { class: "what" }, title(legal, bots)),
               badges.includes(legal.label) ? null : h("span", { class: "detail" }, legal.label),  // not said twice
               costBadges(legal, badges), legal.warning ? h("span", { class: "warning" }, legal.warning) : null);
    }));
    if (!actions.length) $("actions").replaceChildren(h("p", { class: "note" }, "Nothing to do here now: press Next."));
  }

  choose(legal) {
    if (!legal.choose.length) { this.post("POST", "/api/actions", { action: legal.action }); return; }
    const form = choiceForm(legal);
    const box = $("choices");
    box.replaceChildren(h("b", {}, legal.label), ...form.parts, h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "choices-go", onclick: () => {
        let action;
        try { action = form.read(); } catch (err) { this.say(`That choice is not readable: ${err.message}`, true); return; }
        this.post("POST", "/api/actions", { action });
      } }, "Do it"),
      h("button", { type: "button", onclick: () => { box.hidden = true; } }, "Cancel")));
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  async loadKinds() {
    if (this.kinds.size) return;
    const r = await api("GET", "/api/dice/kinds");
    if (r.ok) for (const d of r.body.dice) this.kinds.set(d.die, d);
  }

  async drawDice(pending) {
    const box = $("dice");
    if (!pending) { box.hidden = true; this.typed = []; return; }
    await this.loadKinds();
    const wanted = pending.dice.map((d) => `${d.count} × ${d.die}`).join(", ");
    const typed = h("div", { class: "typed", id: "typed" }, this.typed.length
      ? this.typed.map((t) => diePicture(t.kind, t.face)) : h("span", { class: "note" }, "no faces typed yet"));
    const pickers = pending.dice.map((d) => {
      const kind = this.kinds.get(d.die);
      const faces = kind ? [...new Set(kind.faces)] : [];
      return h("div", {}, h("label", {}, `${d.count} × ${d.die}: tap each face as it lies on the table`), h("div", { class: "faces" }, faces.map((face) =>
        h("button", { type: "button", "data-face": face, "data-die": d.die, title: `${d.die}: ${face}`,
                      onclick: () => { this.typed.push({ kind: kind.kind, face }); this.drawDice(pending); } },
          diePicture(kind.kind, face)))));
    });
    box.replaceChildren(h("b", {}, `Roll at the table: ${pending.message || wanted}`), ...pickers,
      h("label", {}, "Typed so far:"), typed,
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary", id: "dice-send", disabled: !this.typed.length, onclick: async () => {
          const faces = this.typed.map((t) => t.face);
          this.typed = [];
          await this.post("POST", "/api/dice", { faces });
        } }, "Send the faces"),
        h("button", { type: "button", onclick: () => { this.typed.pop(); this.drawDice(pending); } }, "Take back one"),
        h("button", { type: "button", onclick: () => { this.typed = []; this.post("DELETE", "/api/dice"); } }, "Give up")));
    box.hidden = false;
  }

  /** A tapped unit: turn a guard to a facing (a correction on its own space). */
  select(unit) {
    this.selected = this.selected === unit ? null : unit;
    this.drawTurnUnit();
  }

  drawTurnUnit() {
    const box = $("turn-unit");
    const state = this.store.state;
    const guard = state && this.player && state.security.find((u) => u.id === this.selected);
    if (!guard) { box.hidden = true; return; }
    box.replaceChildren(h("span", {}, `Turn ${guard.id} (on ${guard.space}) to face:`),
      ...Object.entries(COMPASS).map(([d, name]) => h("button", { type: "button", "data-facing": d,
        disabled: guard.facing === d,
        onclick: () => this.correct(guard.id, guard.space, d) }, name)));
    box.hidden = false;
  }

  correct(unit, space, facing) {
    return this.post("POST", "/api/corrections", { unit, space, facing: facing || null });
  }

  async loadOptions() {
    const r = await api("GET", "/api/options");
    if (!r.ok) return;
    const o = r.body, d = o.default;
    const select = (name, items, current) => h("select", { name, id: `new-${name}` }, items.map(([value, label]) =>
      h("option", { value, selected: String(value) === String(current) }, label)));
    const agentBoxes = o.agents.map((a) => h("label", {}, h("input", { type: "checkbox", name: "agents", value: a.id,
                                                                         checked: d.agents.includes(a.id) }), ` ${a.name}`));
    const form = $("new-game");
    form.replaceChildren(
      h("label", { for: "new-floor" }, "Floor"), select("floor", o.floors.map((f) => [f.name, f.name]), d.floor),
      h("label", { for: "new-mission" }, "Mission"), select("mission", o.missions.map((m) => [m.id, m.name]), d.mission),
      h("label", {}, "Agents (in turn order)"), h("div", { class: "row" }, agentBoxes),
      h("label", { for: "new-difficulty" }, "Difficulty"), select("difficulty", o.difficulties.map((x) => [x, x]), d.difficulty),
      h("label", { for: "new-level" }, "Level (Adaptable missions)"),
      select("level", [["", "the mission's"], ...o.levels.map((x) => [x, String(x)])], d.level ?? ""),
      h("label", { for: "new-captain" }, "Captain"), select("captain", [["", "the table's"], ...o.captains.map((c) => [c.id, c.name])], d.captain ?? ""),
      h("div", { class: "row" }, h("button", { type: "submit", class: "primary" }, "Start the new game")));
    form.onsubmit = (e) => {
      e.preventDefault();
      const data = new FormData(form);
      const level = data.get("level");
      this.post("POST", "/api/games", { floor: data.get("floor"), mission: data.get("mission"),
                                        agents: data.getAll("agents"), difficulty: data.get("difficulty"),
                                        level: level ? Number(level) : null, captain: data.get("captain") || null });
    };
    $("new-game-panel").hidden = false;
  }
}
