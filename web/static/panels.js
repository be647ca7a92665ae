// The panels beside the board, each drawn whole from the game state (or the table view, health, LEDs) the
// live feed last brought: the threat track, the burncycle, the network mat, the bots, the mission, the players'
// instructions, the questions, what happened, health and the LEDs.
import { $, fill, h, plural, spaced, words } from "./dom.js";
import { initials } from "./floor.js";

const MAX_THREAT = 26;
const STEP_WORDS = { route: "routing power", actions: "actions along the burncycle", network: "the network step",
                     end: "the end of the turn", corporation: "the corporation's turn" };

export function activeAgent(state) {
  const id = state.turn.order[state.turn.active];
  return state.bots.find((b) => b.id === id) || null;
}

export function summary(state) {
  if (!state) return "no game yet";
  const parts = [`round ${state.round}`, `threat ${state.threat}`];
  if (state.outcome) parts.push(state.outcome.result === "victory" ? `victory: ${state.outcome.text}`
                                                                   : `defeat: ${state.outcome.text}`);
  else if (state.turn.step === "corporation") parts.push(STEP_WORDS.corporation);
  else {
    const agent = activeAgent(state);
    parts.push(`${agent ? agent.name : "?"}: ${STEP_WORDS[state.turn.step] || words(state.turn.step)}`);
  }
  return parts.join(", ");
}

function threat(state) {
  const events = new Map(), escalations = new Map();
  state.threat_card.events.forEach((e, i) => events.set(e.threshold, { ...e, fired: state.fired_events.includes(i) }));
  state.threat_card.escalations.forEach((e) => escalations.set(e.threshold, e));
  const cells = [];
  for (let n = 0; n <= MAX_THREAT; n++) {
    const classes = ["cell"];
    if (events.has(n)) classes.push("event");
    if (escalations.has(n)) classes.push("escalation");
    if (n < state.threat) classes.push("reached");
    if (n === state.threat) classes.push("now");
    cells.push(h("span", { class: classes.join(" "), "data-threat": n }, String(n)));
  }
  $("threat-track").replaceChildren(...cells);
  const lines = [];
  for (const e of state.threat_card.events) {
    const fired = events.get(e.threshold).fired;
    lines.push(h("li", { class: fired ? "fired" : "" }, `${e.threshold}: ${e.text}${fired ? " (done)" : ""}`));
  }
  for (const e of state.threat_card.escalations) {
    const active = state.threat >= e.threshold;
    lines.push(h("li", { class: active ? "active-rule" : "" },
                 `escalation ${e.threshold}: ${e.text}${active ? " (in force)" : ""}`));
  }
  fill($("threat-list"), lines, "The threat card has no events.");
}

function burncycle(state) {
  const b = state.burncycle;
  let locked = 0;
  const slots = b.slots.map((chip, i) => {
    const classes = ["slot"];
    if (i === b.tracker) classes.push("tracker");
    if (!chip) {
      const cost = state.module_slot_costs[locked++];
      return h("div", { class: "slot locked", "data-slot": i + 1 }, `${i + 1}`, h("br"),
               cost === undefined ? "locked" : `locked (${cost} power)`);
    }
    if (chip.degraded) classes.push("degraded");
    return h("div", { class: classes.join(" "), "data-slot": i + 1 }, `${i + 1}`, h("br"), words(chip.kind),
             chip.degraded ? " (degraded)" : "", i === b.tracker ? h("div", { class: "small" }, "▲ tracker") : null);
  });
  $("burncycle").replaceChildren(...slots);
  const reserves = [`team reserve: ${b.team_reserve.length ? b.team_reserve.map(words).join(", ") : "empty"}`];
  for (const [bot, chips] of Object.entries(b.personal_reserves)) {
    if (chips.length) reserves.push(`${bot}: ${chips.map(words).join(", ")}`);
  }
  $("reserves").textContent = reserves.join("; ");
}

function network(state) {
  const net = state.network;
  const ipsAt = new Map(), pingsAt = new Map();
  for (const ip of net.ips) if (ip.node) ipsAt.set(ip.node, [...(ipsAt.get(ip.node) || []), ip]);
  for (const ping of net.pings) pingsAt.set(ping.node, (pingsAt.get(ping.node) || 0) + 1);
  const name = (id) => (state.bots.find((b) => b.id === id) || { name: id, kind: "agent" });
  const layers = [];
  for (let layer = 1; layer <= 4; layer++) {
    const nodes = net.mat.nodes.filter((n) => n.layer === layer);
    if (!nodes.length) continue;
    layers.push(h("div", { class: "layer" }, h("b", {}, `layer ${layer}`), nodes.map((node) => {
      const ips = ipsAt.get(node.id) || [], pings = pingsAt.get(node.id) || 0;
      const classes = ["node", node.kind];
      if (ips.length) classes.push("has-ip");
      if (pings) classes.push("has-ping");
      const label = ips.map((ip) => `${initials(name(ip.agent))}${ip.level}`).join(" ")
        || (pings ? `ping${pings > 1 ? ` ×${pings}` : ""}`
          : { hub: "hub", core: "core", access: "acc", physical: "phy", tech: "tech", utility: "util" }[node.kind] || "·");
      return h("span", { class: classes.join(" "), "data-node": node.id, title: `${node.id} (${node.kind})` }, label);
    })));
  }
  const ipWords = net.ips.map((ip) => `${name(ip.agent).name}: ${ip.banned ? "banned" : `${ip.node}, level ${ip.level}`}`);
  layers.push(h("p", { class: "small" }, `CEO level ${net.ceo_level}; ${plural(net.pings.length, "ping")} on the mat; `,
                ipWords.join("; ") || "no IPs"));
  $("network").replaceChildren(...layers);
}

function bots(state) {
  const active = activeAgent(state);
  const pool = state.turn.pool;
  $("bots").replaceChildren(...state.bots.map((bot) => {
    const flags = [];
    if (bot.awareness !== null && bot.awareness === bot.space) flags.push("detected");
    if (bot.hidden) flags.push("hidden");
    if (bot.shut_down) flags.push("shut down");
    if (bot.escaped) flags.push("escaped");
    if (!bot.space && !bot.escaped) flags.push("off the board");
    const dice = ["basic dice each turn"];
    if (bot.advanced_dice) dice.push(plural(bot.advanced_dice, "advanced die", "advanced dice"));
    if (bot.elite_dice) dice.push(plural(bot.elite_dice, "elite die", "elite dice"));
    if (bot.proprietary_die) dice.push(`the ${words(bot.proprietary_die)} die`);
    const items = [];
    for (const card of bot.equipment) items.push(`${card.name}${card.die !== null ? ` (die ${card.die})` : ""}`);
    for (const card of bot.mods) items.push(`${card.name} (not installed)`);
    for (const card of bot.installed) items.push(`${card.name} (installed)`);
    if (bot.innate) items.push(`${bot.innate.name} (innate)`);
    const isActive = active && active.id === bot.id;
    return h("div", { class: `bot${isActive ? " active" : ""}`, "data-bot": bot.id },
             h("div", {}, h("span", { class: "name" }, bot.name), bot.space ? ` on ${bot.space}` : ""),
             h("div", {}, `power ${bot.power} of ${bot.bank}`, bot.keys ? `, ${plural(bot.keys, "key")}` : ""),
             flags.length ? h("div", { class: "flags" }, flags.join(", ")) : null,
             h("div", { class: "small" }, `dice: ${dice.join(", ")}`),
             isActive && state.turn.step === "actions"
               ? h("div", { class: "small" }, `pool: ${pool.basic} basic, ${pool.advanced} advanced, ${pool.elite} elite`
                             + (pool.proprietary ? `, ${pool.proprietary} own die` : "")) : null,
             bot.upgrades.length ? h("div", { class: "small" }, `upgrades: ${bot.upgrades.map(words).join(", ")}`) : null,
             h("ul", {}, items.length ? items.map((t) => h("li", {}, t)) : h("li", { class: "none" }, "inventory empty"),
               bot.imperative ? h("li", {}, `imperative: ${bot.imperative.name}: ${bot.imperative.text}`) : null));
  }));
}

function objectives(state) {
  const m = state.mission;
  const list = (items, done) => h("ul", { class: "checks" }, items.length
    ? items.map((o) => h("li", { class: done ? "done" : "" }, o.text)) : h("li", { class: "none" }, "none"));
  const parts = [h("p", {}, h("b", {}, m.name), m.floors > 1 ? ` (floor ${state.floor_number} of ${m.floors})` : "")];
  const floorPlan = m.floor_plan[state.floor_number - 1];
  if (floorPlan && floorPlan.objectives.length && state.floor_number < m.floors) {
    parts.push(h("h3", {}, "This floor"), list(floorPlan.objectives, false));
  }
  parts.push(h("h3", {}, `Calibration: ${m.calibration_name || "calibrations"}${state.calibrated ? " (done)" : ""}`),
             list(m.calibrations, state.calibrated));
  parts.push(h("h3", {}, `To win: ${m.win_name || "the win"}`), list(m.win, state.outcome && state.outcome.result === "victory"));
  const progress = Object.entries(state.progress).map(([what, n]) => `${words(what)}: ${n}`);
  if (progress.length) parts.push(h("p", { class: "small" }, `counted so far: ${progress.join(", ")}`));
  $("objectives").replaceChildren(...parts);
}

export function drawState(state) {
  $("summary").textContent = summary(state);
  if (!state) return;
  threat(state);
  burncycle(state);
  network(state);
  bots(state);
  objectives(state);
}

/** The instructions and the questions, their space names marked for the board (`places`, dom.js's `spaced`); a
 *  question with options gets a button for each (shown to players only), which calls `answer(question id,
 *  option number)`. No question while instructions wait is not agreement: the players have moves to make. */
export function drawTable(table, answer, places) {
  const instructions = table.instructions || [], camera = table.camera !== false;
  fill($("instructions"), instructions.map((i) =>
    h("li", { class: i.done ? "done" : "", "data-unit": i.unit, "data-done": String(i.done) }, spaced(i.text, places))),
  "Nothing to move on the board.");
  // no camera ticks the moves off: the players carry them out and the list stays as the game left it
  $("instructions-note").hidden = camera || !instructions.length;
  const waiting = camera ? instructions.filter((i) => !i.done).length : 0;
  fill($("questions"), (table.questions || []).map((q) => h("li", { "data-question": q.id }, spaced(q.text, places),
    (q.options || []).length ? h("div", { class: "row answers" }, q.options.map((option, k) =>
      h("button", { type: "button", class: "quiet", "data-option": String(k), onclick: () => answer(q.id, k) },
        spaced(option, places)))) : null)),
  waiting ? `None yet: the players have ${plural(waiting, "instruction")} to carry out first (above).`
          : camera ? "None: the camera and the game agree." : "None.");
}

export function drawHealth(health) {
  fill($("health"), Object.entries((health && health.components) || {}).map(([name, c]) =>
    h("li", { class: `state-${c.state}` }, `${name}: ${c.message}`)), "No components report yet.");
}

/** What happened: newest first, kept to the last 200 lines. */
export function logChanges(changes, reset) {
  const log = $("log");
  if (reset) log.replaceChildren();
  for (const change of changes) {
    const lines = change.instructions && change.instructions.length ? change.instructions : [words(change.kind)];
    for (const text of lines) log.prepend(h("li", { "data-change": change.number }, text));
  }
  while (log.children.length > 200) log.lastChild.remove();
}

export function drawLeds(strip) {
  const dot = (colour) => { const d = h("span", { class: "led" }); d.style.background = colour; return d; };
  const colours = [...(strip.threat || []), ...(strip.slots || []), ...(strip.status ? [strip.status] : [])];
  if (!colours.length) {
    $("leds").replaceChildren(h("span", { class: "note" }, strip.configured ? "The LEDs are not lit yet." : "No LEDs at this table."));
    return;
  }
  $("leds").replaceChildren(...colours.map(dot));
}
