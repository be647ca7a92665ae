// The live page's board as the controller, lichess-like: tap a unit and its legal targets light up (from the
// engine's `at` of each legal action, never worked out here); tap a target and that action is taken (several
// actions on one space: a chooser lists them). A unit dragged by finger or mouse corrects where the game has it.
// The board zooms and pans inside its own frame: a pinch or the +/- buttons zoom, a drag on empty board pans, and
// at the default zoom a space is at least 26 CSS px (a 24 px tap target, 12 px text) even on a phone, where the
// frame then pans. Any element of the page with `data-space="E5"` lights E5 on the board when tapped.
import { $, h, s, words } from "./dom.js";
import { CELL, MARGIN, drawBoard, pinNames } from "./floor.js";

const MIN_CELL = 26;  // CSS px a space at least at the default zoom
const MAX_CELL = 96;
const STEP = 1.25;  // one press of + or −
const SLOP = 8;  // CSS px a finger may wander and still tap
const LIT_MS = 6000;
// the mark a lit space with a unit on it carries: what its first action does to that unit
const MARKS = { swap: "⇄", push: "➜", strike: "✶", stun: "✶", repair: "+", terminal: "T", keypad: "K", step: "→" };

/** What an action on a shared target is, for its button in the chooser: its kind, its approach, its label. */
function choiceText(legal) {
  const a = legal.action;
  const how = [a.approach, a.disguise && "disguise", a.card, a.reassemble && "reassemble"].filter(Boolean).map(words);
  return `${words(legal.tag)}${how.length ? ` (${how.join(", ")})` : ""}: ${legal.label}`;
}

export class Board {
  /** `store` is the page's (status, state, floor, table); `controls` acts (`player`, `choose`, `correct`, `select`). */
  constructor(svg, frame, store, controls) {
    Object.assign(this, { svg, frame, store, controls });
    this.cell = null;  // CSS px a space; null: the default for the frame's width
    this.selected = null;
    this.pickedInMove = false;  // the player picked the selected unit during the move under way
    this.legal = [];
    this.legalNumber = null;  // the game number the legal actions are for: older ones are not offered
    this.lit = null;
    this.litTimer = 0;
    this.pointers = new Map();
    this.gesture = null;
    this.missed = false;  // a draw skipped while a unit was held
    this.centred = false;
    svg.classList.add("playable");
    svg.addEventListener("pointerdown", (e) => this.down(e));
    svg.addEventListener("pointermove", (e) => this.move(e));
    svg.addEventListener("pointerup", (e) => this.up(e));
    svg.addEventListener("pointercancel", (e) => this.cancel(e));
    // a tap is the board's (its pointer events act on it): the click chromium sends after the touch would land on
    // whatever is under the finger by then, such as the list of a shared space's actions the tap just opened
    svg.addEventListener("touchend", (e) => { if (e.cancelable) e.preventDefault(); }, { passive: false });
    frame.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    frame.addEventListener("keydown", (e) => this.key(e));
    svg.addEventListener("keydown", (e) => this.pressKey(e));
    $("zoom-in").addEventListener("click", () => this.zoomBy(STEP));
    $("zoom-out").addEventListener("click", () => this.zoomBy(1 / STEP));
    $("zoom-reset").addEventListener("click", () => this.zoomTo(null));
    document.addEventListener("legal", (e) => {
      this.legal = e.detail || [];
      this.legalNumber = this.store.status.number;
      $("target-choices").hidden = true;  // its actions were for the game before
      this.pickStepper();
      this.decorate();
    });
    document.addEventListener("click", (e) => this.lightNamed(e));
    window.addEventListener("resize", () => this.size());
    frame.addEventListener("scroll", () => this.pinCoordinates(), { passive: true });
  }

  /** Draw the board from the store (not while a unit is held: drawn once it is let go); true when drawn. */
  draw() {
    const { floor, state, table } = this.store;
    if (!floor) return false;
    if (this.gesture && this.gesture.kind === "drag") { this.missed = true; return false; }
    const focused = this.focused();
    drawBoard(this.svg, floor, state, table);
    this.svg.setAttribute("data-number", floor.number);
    this.size();
    this.decorate(focused);
    if (!this.centred && state) this.centreOnActive(state);
    return true;
  }

  // -- zoom and pan --

  /** Board units across and down, coordinates included. */
  extent() {
    const f = this.store.floor;
    return { w: f.columns * CELL + MARGIN.left + 1, h: f.rows * CELL + MARGIN.top + 1 };
  }

  /** CSS px a space when the whole board's width fits the frame. */
  fitCell() { return (this.frame.clientWidth / this.extent().w) * CELL; }

  defaultCell() { return Math.max(this.fitCell(), MIN_CELL); }

  currentCell() { return this.cell === null ? this.defaultCell() : this.cell; }

  size() {
    if (!this.store.floor) return;
    const cell = this.currentCell();
    const { w, h: tall } = this.extent();
    this.svg.style.width = `${(w * cell) / CELL}px`;
    this.svg.style.height = `${(tall * cell) / CELL}px`;
    this.svg.dataset.cell = cell.toFixed(1);
    $("zoom-out").disabled = cell <= Math.min(this.fitCell(), this.defaultCell()) + 0.01;
    $("zoom-in").disabled = cell >= MAX_CELL - 0.01;
    $("zoom-reset").disabled = this.cell === null;
    this.pinCoordinates();
  }

  /** The row numbers and column letters stay at the frame's left and top edges as the board pans. */
  pinCoordinates() {
    const perPx = CELL / this.currentCell();
    const rows = this.svg.querySelector(".coordinates .rows"), columns = this.svg.querySelector(".coordinates .columns");
    if (rows) rows.setAttribute("transform", `translate(${this.frame.scrollLeft * perPx} 0)`);
    if (columns) columns.setAttribute("transform", `translate(0 ${this.frame.scrollTop * perPx})`);
    pinNames(this.svg, this.frame.scrollLeft * perPx, (this.frame.scrollLeft + this.frame.clientWidth) * perPx - MARGIN.left);
  }

  /** Zoom to `cell` px a space (null: the default), keeping the board point under `anchor` (client px) still. */
  zoomTo(cell, anchor) {
    if (!this.store.floor) return;
    const old = this.currentCell();
    const low = Math.min(this.fitCell(), this.defaultCell());
    const wanted = cell === null ? null : Math.min(MAX_CELL, Math.max(low, cell));
    const box = this.frame.getBoundingClientRect();
    const ax = (anchor ? anchor.x : box.left + box.width / 2) - box.left;
    const ay = (anchor ? anchor.y : box.top + box.height / 2) - box.top;
    const x = this.frame.scrollLeft + ax, y = this.frame.scrollTop + ay;
    this.cell = wanted !== null && Math.abs(wanted - this.defaultCell()) < 0.5 ? null : wanted;
    this.size();
    const now = this.currentCell();
    this.frame.scrollLeft = (x * now) / old - ax;
    this.frame.scrollTop = (y * now) / old - ay;
  }

  zoomBy(factor, anchor) { this.zoomTo(this.currentCell() * factor, anchor); }

  /** Pan the frame by a finger's move; what the frame cannot take scrolls the page (the board never traps it). */
  pan(dx, dy) {
    const { scrollLeft, scrollTop } = this.frame;
    this.frame.scrollLeft -= dx;
    this.frame.scrollTop -= dy;
    const restY = dy + (this.frame.scrollTop - scrollTop), restX = dx + (this.frame.scrollLeft - scrollLeft);
    if (Math.abs(restY) > 0.5 || Math.abs(restX) > 0.5) window.scrollBy(-restX, -restY);
  }

  /** Bring a space to the middle of the frame. */
  scrollToSpace(id) {
    const rect = this.svg.querySelector(`rect.space[data-space="${CSS.escape(id)}"]`);
    if (!rect) return;
    const box = rect.getBoundingClientRect(), frame = this.frame.getBoundingClientRect();
    this.frame.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
    this.frame.scrollTop += box.top + box.height / 2 - (frame.top + frame.height / 2);
  }

  centreOnActive(state) {
    const turn = state.turn || {};
    const bot = state.bots.find((b) => b.id === (turn.order || [])[turn.active]);
    if (!bot || !bot.space) return;
    this.centred = true;
    this.scrollToSpace(bot.space);
  }

  wheel(e) {
    if (!e.ctrlKey) return;  // a trackpad's pinch; a plain wheel scrolls the frame
    e.preventDefault();
    this.zoomBy(Math.exp(-e.deltaY / 200), { x: e.clientX, y: e.clientY });
  }

  /** Keys on the board (the frame, a unit or a lit space focused): + − 0 zoom, Escape lets the bot go. */
  key(e) {
    if (e.key === "+" || e.key === "=") this.zoomBy(STEP);
    else if (e.key === "-") this.zoomBy(1 / STEP);
    else if (e.key === "0") this.zoomTo(null);
    else if (e.key === "Escape") this.deselect();
    else return;
    e.preventDefault();
  }

  // -- fingers and the mouse --

  down(e) {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    this.svg.setPointerCapture(e.pointerId);
    e.preventDefault();
    if (this.pointers.size === 2) {  // a pinch: whatever the first finger began is let go
      this.letGo();
      const [a, b] = [...this.pointers.values()];
      this.gesture = { kind: "pinch", distance: Math.hypot(a.x - b.x, a.y - b.y) || 1,
                       cell: this.currentCell(), centre: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
      return;
    }
    if (this.pointers.size > 2) return;
    const hit = e.target.closest && e.target.closest("[data-target], .unit");
    this.gesture = { kind: "press", id: e.pointerId, start: { x: e.clientX, y: e.clientY },
                     last: { x: e.clientX, y: e.clientY }, hit };
  }

  move(e) {
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const g = this.gesture;
    if (!g) return;
    if (g.kind === "pinch") {
      if (this.pointers.size < 2) return;  // one finger of the two lifted: nothing more until both are
      const [a, b] = [...this.pointers.values()];
      const centre = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      this.zoomTo((g.cell * Math.hypot(a.x - b.x, a.y - b.y)) / g.distance, centre);
      this.pan(centre.x - g.centre.x, centre.y - g.centre.y);
      g.centre = centre;
      g.cell = this.currentCell();
      g.distance = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      return;
    }
    if (e.pointerId !== g.id) return;
    const dx = e.clientX - g.start.x, dy = e.clientY - g.start.y;
    if (g.kind === "press" && Math.hypot(dx, dy) > SLOP) {
      const id = g.hit && g.hit.classList.contains("unit") ? g.hit.getAttribute("data-unit") : null;
      // the unit as drawn now (the board may have been redrawn since the finger came down)
      const unit = id && this.svg.querySelector(`.unit[data-unit="${CSS.escape(id)}"]`);
      g.kind = unit && this.controls.player ? "drag" : "pan";
      if (g.kind === "drag") Object.assign(g, { unit, id: e.pointerId, from: unit.getAttribute("data-space") });
    }
    if (g.kind === "drag") {
      const perPx = CELL / this.currentCell();
      g.unit.setAttribute("transform", `translate(${dx * perPx} ${dy * perPx})`);
      g.unit.classList.add("dragging");
    } else if (g.kind === "pan") {
      this.pan(e.clientX - g.last.x, e.clientY - g.last.y);
    }
    g.last = { x: e.clientX, y: e.clientY };
  }

  up(e) {
    if (!this.pointers.delete(e.pointerId)) return;
    const g = this.gesture;
    if (!g || g.kind === "pinch") {
      if (!this.pointers.size) this.gesture = null;
      return;
    }
    if (e.pointerId !== g.id) return;
    this.gesture = null;
    if (g.kind === "press") this.tap(g.hit);
    if (g.kind === "drag") {
      g.unit.removeAttribute("transform");
      g.unit.classList.remove("dragging");
      const space = this.spaceAt(e.clientX, e.clientY);
      if (space && space !== g.from) this.controls.correct(g.unit.getAttribute("data-unit"), space, null);
    }
    this.caughtUp();
  }

  cancel(e) {
    this.pointers.delete(e.pointerId);
    this.letGo();
    if (!this.pointers.size) this.gesture = null;
    this.caughtUp();
  }

  /** A unit held but not dropped goes back to its space. */
  letGo() {
    const g = this.gesture;
    if (g && g.kind === "drag") {
      g.unit.removeAttribute("transform");
      g.unit.classList.remove("dragging");
    }
    this.gesture = null;
  }

  caughtUp() {
    if (this.missed && !this.gesture) { this.missed = false; this.draw(); }
  }

  spaceAt(x, y) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const p = new DOMPoint(x, y).matrixTransform(matrix.inverse());
    const cell = this.svg.querySelector(`rect.space[data-col="${Math.floor(p.x / CELL)}"][data-row="${Math.floor(p.y / CELL)}"]`);
    return cell ? cell.getAttribute("data-space") : null;
  }

  // -- tap to act --

  tap(hit) {
    if (hit && hit.hasAttribute("data-target")) { this.act(hit.getAttribute("data-space")); return; }
    const unit = hit && hit.getAttribute("data-unit");
    if (unit && this.controls.player && unit !== this.selected) this.select(unit);
    else this.deselect();
  }

  /** While a move action is under way its steps are the turn's business: the bot stepping is picked by itself
   *  (the one that stepped already in this move, else the active agent's, else the first that may step), so each
   *  step is one tap on its lit space. A unit the player picked during the move stays picked (the command module
   *  stepping in the agent's move: the game does not count its steps by bot, so the pick itself is
   *  remembered until the move ends); one left picked from before the move (the command module of the last
   *  move) gives way to the new move's bot. */
  pickStepper() {
    if (!this.controls.player) return;
    const stepping = [...new Set(this.legal.filter((l) => l.tag === "step" && l.at && l.bot).map((l) => l.bot))];
    const turn = (this.store.state || {}).turn || {};
    if (!turn.pending) this.pickedInMove = false;
    const moved = Object.keys((turn.pending || {}).steps || {});
    if (!stepping.length || (this.selected && (moved.length || this.pickedInMove || !turn.pending))) return;
    const active = (turn.order || [])[turn.active];
    const bot = stepping.find((b) => moved.includes(b)) || stepping.find((b) => b === active) || stepping[0];
    if (bot === this.selected) return;
    this.selected = bot;
    this.controls.select(bot);
  }

  select(unit) {
    $("target-choices").hidden = true;
    this.selected = unit;
    this.pickedInMove = Boolean(((this.store.state || {}).turn || {}).pending);
    this.controls.select(unit);  // a guard's "turn to face" buttons
    this.decorate();
  }

  deselect() {
    $("target-choices").hidden = true;
    if (this.selected !== null) this.controls.select(null);
    this.selected = null;
    this.decorate();
  }

  /** The selected unit's legal actions, by the space each aims at (none when the listing is older than the game). */
  targets() {
    const out = new Map();
    if (!this.selected || !this.controls.player || this.legalNumber !== this.store.status.number) return out;
    for (const legal of this.legal) {
      if (legal.bot === this.selected && legal.at) out.set(legal.at, [...(out.get(legal.at) || []), legal]);
    }
    return out;
  }

  /** The selection, its targets and a lit space, over a board just drawn (or a listing just fetched); the focus
   *  (a keyboard player's place) goes back to the unit or space it was on. */
  decorate(focused = this.focused()) {
    const svg = this.svg, player = this.controls.player;
    for (const old of svg.querySelectorAll(".targets, .lit")) old.remove();
    for (const unit of svg.querySelectorAll(".unit.selected")) unit.classList.remove("selected");
    const unit = this.selected && svg.querySelector(`.unit[data-unit="${CSS.escape(this.selected)}"]`);
    if (this.selected && !unit) this.selected = null;  // left the board
    if (unit) unit.classList.add("selected");
    if (this.selected) svg.setAttribute("data-selected", this.selected); else svg.removeAttribute("data-selected");
    svg.setAttribute("role", player ? "group" : "img");  // a player's board holds buttons; a watcher's is a picture
    for (const u of svg.querySelectorAll(".unit")) {
      if (!player) { u.removeAttribute("tabindex"); u.removeAttribute("role"); continue; }
      const title = u.querySelector("title");
      u.setAttribute("tabindex", "0");
      u.setAttribute("role", "button");
      u.setAttribute("aria-label", `${title ? title.textContent : u.getAttribute("data-unit")}${u === unit ? " (picked)" : ""}`);
    }
    const spaceOf = new Map((this.store.floor ? this.store.floor.spaces : []).map((sp) => [sp.id, sp]));
    const layer = s("g", { class: "targets" });
    for (const [id, actions] of this.targets()) {
      const sp = spaceOf.get(id);
      if (!sp) continue;
      // a unit standing on the lit space stays pickable: a tap there asks (its actions, or pick the unit), never
      // acts at once; the unit carries the action's mark
      const occupant = this.occupant(id);
      const said = [...actions.map(choiceText), ...(occupant ? [`or pick ${occupant.name}`] : [])].join("; ");
      const target = s("g", { class: `target${actions.length > 1 || occupant ? " several" : ""}${occupant ? " occupied" : ""}`,
                              "data-target": "", "data-space": id, "data-occupant": occupant ? occupant.id : null,
                              "data-index": actions.length === 1 && !occupant ? actions[0].index : null,
                              tabindex: 0, role: "button", "aria-label": `${id}: ${said}` },
                       s("rect", { x: sp.column * CELL + 0.5, y: sp.row * CELL + 0.5, width: CELL - 1, height: CELL - 1,
                                   rx: 1.2 }),
                       s("title", {}, said));
      if (occupant) {
        const x = sp.column * CELL + CELL - 2.4, y = sp.row * CELL + 2.4;
        target.append(s("circle", { cx: x, cy: y, r: 2.3, class: "mark" }),
                      s("text", { x, y, class: "mark" }, MARKS[actions[0].tag] || "…"));
      }
      layer.append(target);
    }
    const edges = svg.querySelector(".coordinates");  // the coordinates stay on top
    svg.insertBefore(layer, edges);
    const lit = this.lit && spaceOf.get(this.lit);
    if (lit) svg.insertBefore(s("rect", { x: lit.column * CELL, y: lit.row * CELL, width: CELL, height: CELL, class: "lit",
                                    "data-lit": this.lit }), edges);
    const bot = this.selected && this.store.state && this.store.state.bots.find((b) => b.id === this.selected);
    const name = bot ? bot.name : this.selected;
    $("board-hint").textContent = !this.controls.player ? "" : !this.selected ? "Tap a bot to see where it can act."
      : !bot ? `${name}: drag it to where it stands, or turn it with the buttons below.`
        : layer.childElementCount ? `${name}: tap a lit space to act there, empty board to let go.`
          : `${name} has nothing to do on the board now.`;
    this.refocus(focused);
  }

  /** Where the keyboard's focus is on the board, as a selector that finds it again after a redraw. */
  focused() {
    const f = document.activeElement;
    if (!f || f === this.svg || !this.svg.contains(f)) return null;
    if (f.hasAttribute("data-target")) return `[data-target][data-space="${CSS.escape(f.getAttribute("data-space"))}"]`;
    return f.hasAttribute("data-unit") ? `.unit[data-unit="${CSS.escape(f.getAttribute("data-unit"))}"]` : null;
  }

  refocus(selector) {
    if (!selector || this.svg.contains(document.activeElement)) return;
    const picked = this.selected && this.svg.querySelector(`.unit[data-unit="${CSS.escape(this.selected)}"]`);
    const again = this.svg.querySelector(selector) || picked;
    if (again) again.focus({ preventScroll: true });
  }

  /** Enter or Space on a focused unit or lit space does what a tap does; a picked bot hands the focus to its
   *  first lit space, so a keyboard plays the board as a finger does. */
  pressKey(e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    const hit = e.target.closest && e.target.closest("[data-target], .unit");
    if (!hit) return;
    e.preventDefault();
    this.tap(hit);
    const first = hit.classList.contains("unit") && this.selected && this.svg.querySelector("[data-target]");
    if (first) first.focus();
  }

  /** The unit standing on a space, other than the one picked: its id and its name. */
  occupant(space) {
    const unit = [...this.svg.querySelectorAll(".unit")].find((u) => u.getAttribute("data-space") === space
                                                               && u.getAttribute("data-unit") !== this.selected);
    if (!unit) return null;
    const id = unit.getAttribute("data-unit");
    const state = this.store.state || { bots: [], security: [] };
    const bot = state.bots.find((b) => b.id === id), guard = state.security.find((u) => u.id === id);
    return { id, name: bot ? bot.name : guard ? `${guard.chip} ${guard.id}` : id };
  }

  act(space) {
    const actions = this.targets().get(space) || [];
    const occupant = this.occupant(space);
    if (actions.length === 1 && !occupant) { this.controls.choose(actions[0]); return; }
    const box = $("target-choices");
    box.replaceChildren(h("b", {}, `On ${space}:`), ...actions.map((legal) =>
      h("button", { type: "button", "data-index": legal.index, onclick: () => { box.hidden = true; this.controls.choose(legal); } },
        choiceText(legal))),
      ...(occupant ? [h("button", { type: "button", "data-pick": occupant.id, onclick: () => { box.hidden = true; this.select(occupant.id); } },
        `Pick ${occupant.name}`)] : []),
      h("button", { type: "button", class: "quiet", onclick: () => { box.hidden = true; } }, "Cancel"));
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  // -- a space named anywhere on the page --

  /** A tap on a space's name: lit on the board. A name on a control that does something of its own (an action's
   *  button, which may open its choices where the player is) pans the board only; a name in text (an instruction,
   *  a question) also brings the board into view. */
  lightNamed(e) {
    const named = e.target.closest && e.target.closest("[data-space]");
    if (!named || named.closest("svg")) return;  // a space on a board (this one, or the new game form's) is its own
    this.light(named.getAttribute("data-space"), !named.closest("button, a, input, select, label"));
  }

  /** Light a space on the board and pan the frame to it; `reveal` also scrolls the page to the board. */
  light(space, reveal = true) {
    this.lit = space;
    clearTimeout(this.litTimer);
    this.litTimer = setTimeout(() => { this.lit = null; this.decorate(); }, LIT_MS);
    this.decorate();
    if (reveal) this.frame.scrollIntoView({ block: "nearest" });
    this.scrollToSpace(space);
  }
}
