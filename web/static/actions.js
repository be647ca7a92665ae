// The legal actions as people read them: a title in the game's words (spaces named as on the mat, each a
// `data-space` the board lights on tap), grouped as the turn offers them (what the burncycle's chip offers now
// first, then free actions, then purchases), an action that cannot succeed disabled with the reason, and the
// questions that come before one that costs threat or loses something. Built from GET /api/legal's fields,
// never from its prose (the rule's words are shown as they are, as the detail).
import { h, plural, spaced, words } from "./dom.js";
import { facingWord } from "./words.js";

// which actions a burncycle chip optimizes (rulebook: physical = move and strike, tech = terminal and network
// card, utility = keypad, general = none)
const OPTIMIZED = { physical: ["move", "strike", "strike_wall"], tech: ["terminal", "network_card"], utility: ["keypad"] };
const FREE = ["alter", "trade", "use_equipment", "install_mod", "discard"];
const PURCHASES = ["buy_upgrade", "buy_dice_upgrade", "unlock_slot", "reboot", "draw_chip"];
const LAST = ["end_move", "pass", "degrade", "end_turn"];  // what ends something goes after what does something
const STEP_HEADINGS = { route: "Power routing", network: "The network step", end: "The end of the turn",
                        corporation: "The corporation" };
const APPROACHES = { inputs: "with the keypad's inputs", brute_force: "by brute force", key: "with a key",
                     abort: "giving up" };

/** A space named in a title: the board lights it when it is tapped. */
const spaceName = (id) => h("span", { class: "space", "data-space": id }, id);

/** What the page knows to name things: bots and units by name, cards by name, spaces for `spaced`. */
export function namesOf(state, floor) {
  const bots = new Map((state ? state.bots : []).map((b) => [b.id, b.name]));
  const units = new Map((state ? state.security : []).map((u) => [u.id, `${words(u.chip)} ${u.id}`]));
  return {
    bot: (id) => bots.get(id) || units.get(id) || (id === "joan" ? "Joan" : words(id)),
    cards: new Map(),
    places: { spaces: new Set(floor ? floor.spaces.map((sp) => sp.id) : []),
              units: new Set([...bots.keys(), ...units.keys()]) },
  };
}

const card = (names, id) => (names.cards.get(id) ? `${names.cards.get(id)} (${id})` : id);

/** An action's title for its button: what it is, who does it, and where, as a player says it. */
function title(legal, names) {
  const a = legal.action, who = legal.bot ? names.bot(legal.bot) : "";
  switch (legal.tag) {
    case "begin_actions": return ["Start the actions along the burncycle"];
    case "buy_upgrade": return [`Buy the ${words(a.upgrade)} upgrade for ${who}`];
    case "buy_dice_upgrade": return [`Buy a dice upgrade for ${who}`];
    case "unlock_slot": return ["Unlock a burncycle slot"];
    case "reboot": return ["Reboot the burncycle"];
    case "alter": return [`Swap slot ${a.slot}'s chip for a ${a.chip} chip from ${a.source === "team"
      ? "the team reserve" : `${names.bot(a.source)}'s reserve`}`];
    case "move": return [`Move: roll for AP`];
    case "step": return [`${who} steps to `, spaceName(a.to), a.take_cache ? " and takes the cache" : "",
                         a.reassemble ? " (reassembling)" : ""];
    case "swap": return [`${who} swaps places with ${names.bot(a.other)}`];
    case "push": return [`${who} pushes ${names.bot(a.unit)} to `, spaceName(a.to)];
    case "trade": return [`${who} trades with ${names.bot(a.to)}`];
    case "use_equipment": return [`${who} uses ${card(names, a.card)}`, a.unit ? ` on ${names.bot(a.unit)}` : "",
                                  a.beyond ? [" towards ", spaceName(a.beyond)] : ""];
    case "install_mod": return [`${who} installs ${card(names, a.card)}`];
    case "discard": return [`${who} discards ${card(names, a.card)}`];
    case "end_move": return ["End the move"];
    case "strike": return [`${who} strikes ${names.bot(a.unit)}`, a.stun_only ? " to stun" : "",
                           a.disguise ? " and takes its chip as a disguise" : ""];
    case "strike_wall": return a.beyond ? [`${who} strikes the wall towards `, spaceName(a.beyond)]
      : [`${who} strikes the ${facingWord(a.side)} outer wall`];
    case "repair": return [`${who} repairs ${names.bot(a.target)}`];
    case "network_card": return ["Draw a network card"];
    case "draw_chip": return [`Take a ${a.chip} chip`];
    case "escape": return [`${who} escapes the floor`];
    case "joan_surveil": return ["Joan surveils the room"];
    case "joan_stun": return [`Joan stuns ${names.bot(a.unit)}`];
    case "hop": return [`${who} hops to `, spaceName(a.path[a.path.length - 1])];
    case "pass": return ["Pass this chip"];
    case "network_step": {
      const first = Object.values(a.transfers || {})[0];
      return [first ? `Network step, transferring ${first}ward first` : "Network step"];
    }
    case "degrade": return ["Degrade a chip now"];
    case "end_turn": return ["End the turn"];
    case "corporation_turn": return ["The corporation's turn"];
    case "keypad": return [`${who} at the keypad towards `, spaceName(a.beyond), ` ${APPROACHES[a.approach] || ""}`];
    case "terminal": return [`${who} uses the terminal`];
    default: return [`${words(legal.tag)}${who ? `: ${who}` : ""}`];
  }
}

const titleText = (parts) => parts.flat(Infinity).map((p) => (typeof p === "string" ? p : p.textContent)).join("");

/** What the rule says beyond the title, without the words the title already says ("Pass this chip" over "pass
 *  this chip: the tracker moves on" leaves "the tracker moves on"; "Draw a network card" leaves nothing). */
function detail(legal, said) {
  const title = said.toLowerCase().split(/\s+/), label = legal.label.split(/\s+/);
  let k = 0;
  while (k < label.length && k < title.length && label[k].toLowerCase().replace(/:$/, "") === title[k]) k += 1;
  const rest = label.slice(k).join(" ").replace(/^[:;,]\s*/, "");
  return k && !rest ? "" : (k ? rest : legal.label);
}

/** What an action costs, as badges (AP, power, threat, keys, a durability to beat). */
function costs(legal) {
  const c = legal.cost, badges = [];
  if (c.ap) badges.push(`${c.ap} AP`);
  if (c.power) badges.push(c.power > 0 ? `${c.power} power` : `+${-c.power} power`);
  if (c.threat) badges.push(`+${c.threat} threat`);
  if (c.keys) badges.push(plural(c.keys, "key"));
  if (legal.target_ap) badges.push(`needs ${legal.target_ap} AP`);
  if (!badges.length && legal.label === "free") badges.push("free");
  return badges;
}

// what a field asks, in a few words: a badge says "choose the dice", never "choose choose"
export const FIELDS = { dice: "the dice", payers: "who pays", choose: "the slot to degrade", pay: "how to pay the inputs",
                        amount: "how much power", doors: "the doors to open", transfers: "the transfers",
                        asterisk: "Asterisk's slot", risky: "Risky Click's cards", options: "the terminal's options",
                        discard: "the cards to let go", path: "the way", keys: "keys to give", cards: "cards to give" };

/** The most AP the dice left can give (and an optimized chip's +2): below the durability, the check cannot pass. */
export function cannot(legal) {
  if (!legal.target_ap || !legal.choose.includes("dice")) return null;
  if (!legal.dice.length) return `no dice left in the pool: it needs ${legal.target_ap} AP`;
  const most = legal.dice.reduce((n, d) => n + d.most * Math.max(...d.ap), 0) + 2;
  return most < legal.target_ap ? `at most ${most} AP with the dice left: it needs ${legal.target_ap} AP` : null;
}

/** The question asked before an action that costs threat or loses something; null when it just goes. */
export function confirmation(legal, names) {
  const said = titleText(title(legal, names));
  const reasons = [];
  if (legal.cost.threat) reasons.push(`It raises the threat by ${legal.cost.threat}.`);
  if (legal.warning) reasons.push(`${legal.warning[0].toUpperCase()}${legal.warning.slice(1)}.`);
  return reasons.length ? { question: `${said}?`, detail: reasons.join(" ") } : null;
}

/** The button of one legal action; `onpick(legal)` when it is tapped. */
export function actionButton(legal, names, optimized, onpick) {
  const parts = title(legal, names), said = titleText(parts);
  const badges = costs(legal), reason = cannot(legal);
  const more = badges.includes(legal.label) ? "" : detail(legal, said);
  return h("button", { type: "button", class: `action${optimized ? " optimized" : ""}`, "data-tag": legal.tag,
                       "data-index": legal.index, disabled: Boolean(reason), onclick: () => onpick(legal) },
           h("span", { class: "what" }, parts),
           more ? h("span", { class: "detail" }, spaced(more, names.places)) : null,
           h("span", { class: "cost" }, optimized ? h("span", { class: "optimized" }, "optimized") : null,
             badges.map((b) => h("span", {}, b)),
             legal.choose.map((f) => `choose ${FIELDS[f] || words(f)}`).filter((need) => !more.includes(need))
               .map((need) => h("span", { class: "needs" }, need))),
           legal.warning ? h("span", { class: "warning" }, legal.warning) : null,
           reason ? h("span", { class: "reason" }, `Cannot succeed: ${reason}`) : null);
}

/** The chip under the tracker now (its kind and slot), when the turn is along the burncycle. */
function chipNow(state) {
  if (!state || state.turn.step !== "actions") return null;
  const b = state.burncycle, chip = b.slots[b.tracker];
  return chip ? { kind: chip.degraded ? null : chip.kind, slot: b.tracker + 1, degraded: chip.degraded } : null;
}

/** The actions in the groups a player looks for: [{heading, id, actions: [{legal, optimized}]}], none empty. */
export function groups(actions, state) {
  const chip = chipNow(state);
  const matches = (legal) => Boolean(chip && chip.kind && (OPTIMIZED[chip.kind] || []).includes(legal.tag)
                                     && !state.turn.extra_action);
  const main = actions.filter((a) => !FREE.includes(a.tag) && !PURCHASES.includes(a.tag));
  const rank = (a) => (matches(a) ? 0 : LAST.includes(a.tag) ? 2 : 1);
  main.sort((x, y) => rank(x) - rank(y) || x.index - y.index);
  let heading = "Now";
  if (state && state.turn.pending) heading = `The move under way: ${plural(state.turn.pending.ap, "AP")} left`;
  else if (chip) heading = `On the ${chip.degraded ? "degraded" : chip.kind} chip of slot ${chip.slot}`;
  else if (state) heading = STEP_HEADINGS[state.turn.step] || heading;
  const all = [
    { id: "now", heading, actions: main.map((legal) => ({ legal, optimized: matches(legal) })) },
    { id: "free", heading: "Free actions", actions: actions.filter((a) => FREE.includes(a.tag)).map((legal) => ({ legal })) },
    { id: "purchases", heading: "Purchases", actions: actions.filter((a) => PURCHASES.includes(a.tag)).map((legal) => ({ legal })) },
  ];
  return all.filter((g) => g.actions.length);
}
