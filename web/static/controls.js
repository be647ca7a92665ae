// Changing the game from the page: the PIN, the legal actions grouped as the turn offers them (their choices
// asked before posting, a question before what costs threat or loses something), the dice and draws the game
// waits for, next / corporation turn / undo / redo, corrections by dragging a unit, and a new game. Every
// request goes to the table's own JSON API; a refusal's message is shown as text.
//
// For the board: `controls.legal` is the last GET /api/legal list (a "legal" event on document follows each
// refresh, its detail the same list), and `controls.choose(legal)` performs one of them as its button would.
import { $, api, confirmed, h, s, spaced, words } from "./dom.js";
import { CELL, drawBoard } from "./floor.js";
import { actionButton, cannot, confirmation, groups, namesOf } from "./actions.js";
import { choiceForm } from "./choices.js";
import { cardNames, dicePanel } from "./dice.js";
import { pinForm, sentence } from "./pin.js";


export class Controls {
  constructor(store, say) {
    this.store = store;
    this.say = say;
    this.sessionAsked = 0;      // GET /api/session asked so far: only the newest answer counts
    this.legal = [];
    this.printed = new Map();   // a die's printed faces by its name, for a request that lists none
    this.typed = new Map();     // the faces tapped for the dice request shown, by die
    this.typedFor = null;       // which request `typed` belongs to
    this.selected = null;
    this.facings = [];          // the game's facings (GET /api/options: the rules' words), for turning a guard
    this.game = null;
    this.legalNumber = null;
    this.sessionKnown = false;  // false from a lost feed until the table said again who this phone is
    this.boot = null;           // the table's boot id: another one after a reconnect means it restarted
    $("pin").replaceChildren(pinForm({ ids: { form: "pin-form", input: "pin-input" },
                                       onUnlocked: () => this.unlocked() }));
    $("next").addEventListener("click", () => this.post("POST", "/api/next"));
    $("corp").addEventListener("click", () => this.post("POST", "/api/corporation-turn"));
    $("undo").addEventListener("click", () => this.post("POST", "/api/undo"));
    $("redo").addEventListener("click", () => this.post("POST", "/api/redo"));
    $("dice-mode").addEventListener("change", (e) => this.post("PUT", "/api/dice/mode", { mode: e.target.value }));
    $("lock").addEventListener("click", async () => { await api("DELETE", "/api/session"); this.checkSession(); });
  }

  get player() { return this.sessionKnown && this.store.session.player && !this.store.session.read_only; }

  names() {
    const names = namesOf(this.store.state, this.store.floor);
    names.cards = this.store.state ? cardNames(this.store.state) : new Map();
    return names;
  }

  /** The live feed is gone (or back): nothing is offered while the table cannot take it, and what the page
   *  said about the table not answering goes once it answers again. */
  online(up) {
    if (!up) {
      this.sessionKnown = false;
      this.draw();
    } else if ($("message").dataset.offline === "true") {
      this.say("");
    }
  }

  async checkSession() {
    const asked = ++this.sessionAsked;  // an answer to an older question (sent before an unlock) is not the news
    const r = await api("GET", "/api/session");
    if (!r.ok || asked !== this.sessionAsked) return;
    const was = this.store.session;
    const restarted = this.boot !== null && r.body.boot !== this.boot;
    this.boot = r.body.boot;
    this.store.session = r.body;
    this.sessionKnown = true;
    if (was.player && !r.body.player && !r.body.read_only) {
      this.say(restarted ? "The table restarted: type its PIN to play again."
                         : "This phone is locked again: type the table's PIN to play.", true);
    }
    this.draw();
    if (this.player) {
      this.loadOptions();
      this.legalNumber = null;
      this.refresh();
    }
  }

  async unlocked() {
    this.say("Unlocked: this phone may change the game.");
    await this.checkSession();
  }

  /** A change asked of the table; a refusal's message is said (and shown in `problem` too, when given: the new
   *  game's form shows its own beside its button, far below the message on a phone). */
  async post(method, path, body, problem = null) {
    const r = await api(method, path, body);
    if (problem) problem.textContent = r.ok ? "" : sentence(r.body.message);
    if (!r.ok) {
      this.say(sentence(r.body.message), true);
      $("message").dataset.offline = String(r.status === 0);
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
      this.say(sentence(r.body.message), true);
      if (r.status === 401) this.checkSession();
      return;
    }
    this.say("Answered: the game follows the way chosen.");
  }

  /** After each change: the legal actions again (when this phone may act), the dice asked for. */
  async refresh() {
    if (this.store.status.game !== this.game) {  // a new game: nothing selected in the old one carries over
      this.game = this.store.status.game;
      this.selected = null;
    }
    this.draw();
    const number = this.store.status.number;
    if (!this.player || !this.store.state || this.legalNumber === number) return;
    this.legalNumber = number;
    const r = await api("GET", "/api/legal");
    if (!r.ok || r.body.number !== this.store.status.number || !this.player) return;
    this.legal = r.body.actions;
    this.drawActions(this.legal);
    document.dispatchEvent(new CustomEvent("legal", { detail: this.legal }));  // the board lights targets
  }

  draw() {
    const player = this.player, ro = this.store.session.read_only;
    document.body.classList.toggle("player", Boolean(player));
    $("who").textContent = player ? "unlocked: this phone plays" : (ro ? "a spectators' table" : "watching");
    $("pin").hidden = player || ro || !this.sessionKnown;
    $("steps").hidden = !player;
    if (ro) this.say("A spectators' table: the game is watched here, not changed.");
    const status = this.store.status || {};
    $("undo").disabled = !status.can_undo;
    $("redo").disabled = !status.can_redo;
    if (status.dice_mode) $("dice-mode").value = status.dice_mode;
    const state = this.store.state;
    const over = Boolean(state && state.outcome);  // a game over takes no turn: Next starts another game
    $("corp").hidden = over || !(state && state.turn.step === "corporation");
    $("next").textContent = over ? "Next game" : "Next";
    if (!player) {
      $("actions").replaceChildren();
      $("choices").hidden = true;
      $("new-game-panel").hidden = true;
      if (this.legal.length) {
        this.legal = [];
        document.dispatchEvent(new CustomEvent("legal", { detail: this.legal }));
      }
    }
    this.drawDice(player ? status.pending_dice : null);
    this.drawTurnUnit();
  }

  drawActions(actions) {
    const names = this.names();
    const box = $("actions");
    if (!actions.length) {
      const over = this.store.state && this.store.state.outcome;
      box.replaceChildren(h("p", { class: "note" }, over
        ? "The game is over: Next game starts another as the table is set up (or choose one below), or undo."
        : "Nothing to do here now: press Next."));
      return;
    }
    box.replaceChildren(...groups(actions, this.store.state).map((group) =>
      h("section", { class: "action-group", "data-group": group.id, "aria-labelledby": `actions-${group.id}` },
        h("h3", { id: `actions-${group.id}` }, group.heading),
        h("div", { class: "action-list" }, group.actions.map(({ legal, optimized }) =>
          actionButton(legal, names, optimized, (picked) => this.choose(picked)))))));
  }

  /** Perform one legal action as its button does: refused with the reason when it cannot succeed, asked about
   *  first when it costs threat or loses something, its choices asked before it is posted. */
  async choose(legal) {
    const reason = cannot(legal);
    if (reason) { this.say(`That cannot succeed: ${reason}.`, true); return; }
    const ask = confirmation(legal, this.names());
    if (ask && !(await confirmed(ask.question, ask.detail, "Yes, do it"))) { this.say("Nothing was done."); return; }
    if (!legal.choose.length) { this.post("POST", "/api/actions", { action: legal.action }); return; }
    const form = choiceForm(legal, this.store.state, this.names());
    const box = $("choices");
    box.replaceChildren(h("b", {}, spaced(sentence(legal.label), this.names().places)), ...form.parts,
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary", id: "choices-go",
                      onclick: () => this.post("POST", "/api/actions", { action: form.read() }) }, "Do it"),
        h("button", { type: "button", onclick: () => { box.hidden = true; } }, "Cancel")));
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  async loadPrinted() {
    if (this.printed.size) return;
    const r = await api("GET", "/api/dice/kinds");
    if (r.ok) for (const d of r.body.dice) this.printed.set(d.die, d.faces);
  }

  async drawDice(pending) {
    const box = $("dice");
    if (!pending) { box.hidden = true; this.typed = new Map(); this.typedFor = null; return; }
    const key = JSON.stringify([pending.action, pending.faces, pending.dice]);
    if (key !== this.typedFor) { this.typed = new Map(); this.typedFor = key; }
    if (pending.dice.some((d) => !(d.faces || []).length)) await this.loadPrinted();
    const redraw = () => this.drawDice(this.store.status.pending_dice);
    box.replaceChildren(...dicePanel(pending, this.typed, this.printed, this.names().cards, {
      tap: (die, face) => { this.typed.set(die, [...(this.typed.get(die) || []), face]); redraw(); },
      untap: (die) => { this.typed.set(die, (this.typed.get(die) || []).slice(0, -1)); redraw(); },
      send: async (faces) => { this.typed = new Map(); await this.post("POST", "/api/dice", { faces }); },
      cancel: () => { this.typed = new Map(); this.post("DELETE", "/api/dice"); },
      tableRolls: () => this.tableRolls(pending),
    }));
    box.hidden = false;
  }

  /** The table rolls (or draws) what the players cannot: the request given up, the action sent again with the
   *  table's dice, and the players' dice back for what follows. */
  async tableRolls(pending) {
    if (!await this.post("DELETE", "/api/dice")) return;
    if (!await this.post("PUT", "/api/dice/mode", { mode: "virtual" })) return;
    const done = await this.post("POST", "/api/actions", { action: pending.action });
    await api("PUT", "/api/dice/mode", { mode: "physical" });
    if (done) this.say(`The table rolled for ${pending.purpose}; your dice again from now on.`);
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
    box.replaceChildren(h("span", {}, `Turn ${words(guard.chip)} ${guard.id} (on `,
                          h("span", { class: "space", "data-space": guard.space }, guard.space), ") to face:"),
      ...this.facings.map(({ letter, word }) => h("button", { type: "button", "data-facing": letter,
        disabled: guard.facing === letter,
        onclick: () => this.correct(guard.id, guard.space, letter) }, word)));
    box.hidden = false;
  }

  correct(unit, space, facing) {
    return this.post("POST", "/api/corrections", { unit, space, facing: facing || null });
  }

  async loadOptions() {
    const r = await api("GET", "/api/options");
    if (!r.ok) return;
    this.facings = r.body.facings;
    this.drawTurnUnit();  // a guard tapped before the words came
    const form = $("new-game");
    const start = startPart(r.body, form);
    const problem = h("p", { id: "new-game-problem", class: "message bad", role: "status", "aria-live": "polite" });
    form.replaceChildren(...newGameFields(r.body, start.draw), start.box, problem,
      h("div", { class: "row" }, h("button", { type: "submit", class: "primary" }, "Start the new game")));
    start.draw();
    form.onchange = (e) => {  // another floor, mission, level or team: other spaces, other bots to place
      if (!e.target.closest("#new-start")) start.draw();
      problem.textContent = start.twice();  // what was refused was another form's
    };
    form.onsubmit = async (e) => {
      e.preventDefault();
      const twice = start.twice();
      if (twice) {
        problem.textContent = twice;
        this.say(twice, true);
        return;
      }
      const state = this.store.state;
      if (state && !state.outcome && !(await confirmed("Start a new game?",
        `The game in progress (${this.store.status.title}, round ${state.round}) stops here; it stays in the game log.`,
        "Yes, a new game"))) {
        this.say("The game goes on.");
        return;
      }
      const data = new FormData(form);
      const level = data.get("level");
      const agents = [...form.querySelectorAll(".agent")].filter((row) => row.querySelector("input").checked)
        .map((row) => row.dataset.agent);
      const chosen = start.chosen();
      this.post("POST", "/api/games", { floor: data.get("floor"), mission: data.get("mission"), agents,
                                        difficulty: data.get("difficulty"), level: level ? Number(level) : null,
                                        captain: data.get("captain") || null,
                                        ...(Object.keys(chosen).length ? { start: chosen } : {}) }, problem);
    };
    $("new-game-panel").hidden = false;
  }
}

/** The new game's fields: floors by their names, the agents in turn order (each a box beside its name, moved
 *  earlier or later with its buttons), the mission, difficulty, level and captain; `reordered` is told when the
 *  turn order changes (the start part lists the agents in it). */
function newGameFields(o, reordered) {
  const d = o.default;
  const select = (name, items, current) => h("select", { name, id: `new-${name}` }, items.map(([value, label]) =>
    h("option", { value, selected: String(value) === String(current) }, label)));
  const order = [...d.agents.map((id) => o.agents.find((a) => a.id === id)).filter(Boolean),
                 ...o.agents.filter((a) => !d.agents.includes(a.id))];
  const list = h("ol", { class: "agents", id: "new-agents" });
  const renumber = () => [...list.children].forEach((row, k) => {
    row.querySelector(".earlier").disabled = k === 0;
    row.querySelector(".later").disabled = k === list.children.length - 1;
  });
  const move = (row, by) => {
    const rows = [...list.children], k = rows.indexOf(row), to = k + by;
    if (to < 0 || to >= rows.length) return;
    if (by < 0) list.insertBefore(row, rows[to]); else list.insertBefore(row, rows[to].nextSibling);
    renumber();
    reordered();
    row.querySelector(by < 0 ? ".earlier" : ".later").focus();
  };
  for (const a of order) {
    const row = h("li", { class: "agent", "data-agent": a.id });
    row.append(h("label", { class: "inline" }, h("input", { type: "checkbox", name: "agents", value: a.id,
                                                            checked: d.agents.includes(a.id) }), ` ${a.name}`),
               h("span", { class: "order" },
                 h("button", { type: "button", class: "quiet earlier", "aria-label": `${a.name} earlier in the turn order`,
                               onclick: () => move(row, -1) }, "▲"),
                 h("button", { type: "button", class: "quiet later", "aria-label": `${a.name} later in the turn order`,
                               onclick: () => move(row, 1) }, "▼")));
    list.append(row);
  }
  renumber();
  return [
    h("label", { for: "new-floor" }, "Floor"),
    select("floor", o.floors.map((f) => [f.name, f.title || words(f.name)]), d.floor),
    h("label", { for: "new-mission" }, "Mission"), missionSelect(o.missions, d.mission),
    h("fieldset", { class: "field" }, h("legend", {}, "Agents, in turn order (ticked ones play)"), list),
    h("label", { for: "new-difficulty" }, "Difficulty"), select("difficulty", o.difficulties.map((x) => [x, x]), d.difficulty),
    h("label", { for: "new-level" }, "Level (Adaptable missions)"),
    select("level", [["", "the mission's"], ...o.levels.map((x) => [x, String(x)])], d.level ?? ""),
    h("label", { for: "new-captain" }, "Captain"), select("captain", [["", "the table's"], ...o.captains.map((c) => [c.id, c.name])], d.captain ?? ""),
  ];
}

/** The missions, the Adaptable ones in a group of their own named without the card's "Adaptable: " (a phone's
 *  select shows its chosen option on one line: "Adaptable: Operation Ghost in the Dell" was cut off there). */
function missionSelect(missions, current) {
  const option = (m) => h("option", { value: m.id, selected: m.id === current }, m.name.replace(/^Adaptable:\s*/, ""));
  const standard = missions.filter((m) => !m.adaptable), adaptable = missions.filter((m) => m.adaptable);
  return h("select", { name: "mission", id: "new-mission" }, standard.map(option),
           adaptable.length ? h("optgroup", { label: "Adaptable missions" }, adaptable.map(option)) : null);
}

/** "Where the team starts": shown only where the rules give the team the choice (the mission's `start_levels`,
 *  from the rules' own `starts_in_safe_zones`, hold the level the game would play: an Adaptable mission's chosen
 *  level, else the floor's own). One select per bot the players place (the ticked agents in turn order, and the
 *  command module where the mission has the players place it) of the floor's safe zone spaces, grouped by zone,
 *  first "the table's choice" (the first free space in reading order). A space chosen (at first, table.toml's
 *  `game.start`) stays chosen while the floor has it. `draw` redraws it for the form as it is now, `chosen` is
 *  the start to send (bot -> space, only the bots given one), `twice` the sentence for two or more bots given
 *  one space (empty when none are). Below the selects the floor is drawn (GET /api/floors/{name}/board) with
 *  each bot where it would start, so a player sees where "D15" is: the ones left to the table dashed, on the
 *  first free space in the order the engine takes them (the zones' spaces as listed, skipping the chosen). */
function startPart(o, form) {
  const box = h("fieldset", { class: "field start", id: "new-start", hidden: true });
  const kept = new Map(Object.entries(o.default.start || {}));  // bot -> the space last chosen for it
  const selects = () => (box.hidden ? [] : [...box.querySelectorAll("select")]);
  const floors = new Map();  // floor name -> its drawing's promise (null when the table could not lay it out)
  const picture = s("svg", { id: "new-start-board", class: "floor-board", role: "img" });
  const frame = h("div", { class: "board-frame start-board" }, picture);
  let bots = [], zones = [], floorName = null;
  const placed = () => {  // each bot's start space, and whether the players chose it
    const chosen = new Map(selects().filter((x) => x.value).map((x) => [x.dataset.bot, x.value]));
    const free = zones.flatMap((zone) => zone.spaces).filter((space) => ![...chosen.values()].includes(space));
    return bots.map((bot) => ({ bot, space: chosen.get(bot.id) || free.shift() || null, table: !chosen.has(bot.id) }));
  };
  const show = async () => {
    const name = floorName;
    if (!floors.has(name)) {
      floors.set(name, api("GET", `/api/floors/${encodeURIComponent(name)}/board`).then((r) => (r.ok ? r.body : null)));
    }
    const floor = await floors.get(name);
    if (name !== floorName || box.hidden) return;  // the form moved on while the floor came
    frame.hidden = !floor;
    if (!floor) return;
    const where = placed();
    const state = { bots: where.filter((p) => p.space).map(({ bot, space }) => (
      { id: bot.id, name: bot.name, kind: bot.id === o.module.id ? "module" : "agent", space, awareness: null })),
                    security: [] };
    drawBoard(picture, floor, state, null);
    for (const before of picture.querySelectorAll(".start-lit")) before.remove();  // drawBoard keeps the floor's own
    const spaces = new Map(floor.spaces.map((sp) => [sp.id, sp]));
    const lit = s("g", { class: "start-lit" });  // under the units: each start space lit, so a bot stands out
    for (const p of where) {
      const unit = picture.querySelector(`.unit[data-unit="${p.bot.id}"]`);
      if (unit) unit.classList.toggle("table-choice", p.table);
      const sp = spaces.get(p.space);
      if (sp) lit.append(s("rect", { x: sp.column * CELL - 2, y: sp.row * CELL - 2, width: CELL + 4, height: CELL + 4,
                                     rx: 3, "data-space": sp.id }));
    }
    picture.insertBefore(lit, picture.querySelector(".units"));
    picture.setAttribute("aria-label", `Where the team would start on ${floor.name}: ` + where.map((p) => (
      `${p.bot.name} on ${p.space || "no free space"}${p.table ? " (the table's choice)" : ""}`)).join(", ") + ".");
  };
  const draw = () => {
    const data = new FormData(form);
    const floor = o.floors.find((f) => f.name === data.get("floor"));
    const mission = o.missions.find((m) => m.id === data.get("mission"));
    const chosenLevel = mission && mission.adaptable && data.get("level");  // else the floor's own
    const level = chosenLevel ? Number(chosenLevel) : floor && floor.level;
    zones = (floor && floor.safe_zones) || [];
    box.hidden = !(mission && zones.length && mission.start_levels.includes(level));
    if (box.hidden) { box.replaceChildren(); return; }
    const team = [...form.querySelectorAll(".agent")].filter((row) => row.querySelector("input").checked)
      .map((row) => o.agents.find((a) => a.id === row.dataset.agent)).filter(Boolean);
    bots = mission.places_module ? [...team, o.module] : team;
    floorName = floor.name;
    box.replaceChildren(h("legend", {}, "Where the team starts"),
      h("p", { class: "note small" }, "Each bot on a safe zone space of your choice, one bot per space. ",
        "The table's choice is the first free space in reading order."),
      h("div", { class: "start-bots" }, bots.map((bot) => [
        h("label", { for: `new-start-${bot.id}` }, bot.name),
        h("select", { id: `new-start-${bot.id}`, "data-bot": bot.id,
                      onchange: (e) => { kept.set(bot.id, e.target.value); show(); } },
          h("option", { value: "" }, "the table's choice"),
          zones.map((zone) => h("optgroup", { label: zone.name }, zone.spaces.map((space) =>
            h("option", { value: space, selected: kept.get(bot.id) === space }, space)))))])));
    if (!bots.length) box.append(h("p", { class: "note small" }, "Tick the agents who play to place them."));
    box.append(frame);
    show();
  };
  const chosen = () => Object.fromEntries(selects().filter((s) => s.value).map((s) => [s.dataset.bot, s.value]));
  const twice = () => {
    const by = new Map();
    for (const s of selects()) {
      s.removeAttribute("aria-invalid");
      if (s.value) by.set(s.value, [...(by.get(s.value) || []), s]);
    }
    const shared = [...by.entries()].find(([, on]) => on.length > 1);
    if (!shared) return "";
    const [space, on] = shared;
    for (const s of on) s.setAttribute("aria-invalid", "true");
    const names = on.map((s) => box.querySelector(`label[for="${s.id}"]`).textContent);
    const who = `${names.slice(0, -1).join(", ")} and ${names.at(-1)} would ${names.length > 2 ? "all" : "both"}`;
    return `${who} start on ${space}: one bot per space, so choose another for one of them.`;
  };
  return { box, draw, chosen, twice };
}
