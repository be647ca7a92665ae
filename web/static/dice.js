// The dice panel: when the game waits for dice rolled (or cards and chips drawn) at the table, every kind the
// action still needs is asked at once, each with the results it can show (pictures of a die's faces, the cards
// of a deck, the chips of a bag), taken from the request itself (status.pending_dice.dice[i].faces). The faces
// are sent in the order the request lists its kinds, which is the order the engine reads them.
import { h, plural, s } from "./dom.js";

const DIE_COLOURS = { basic: ["#f2f2f2", "#111"], advanced: ["#3d7fd6", "#fff"], elite: ["#d6a93d", "#111"],
                      ping: ["#c23b3b", "#fff"], burncycle: ["#222", "#ff9a3d"], keypad: ["#2f8f5b", "#fff"],
                      surveillance: ["#6a3fb0", "#fff"], equipment: ["#8a8f96", "#111"],
                      pressure: ["#b0503d", "#fff"], lift: ["#4f6b3d", "#fff"] };
const PIPS = { 1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
               4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
               6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]] };

/** A die as a picture: a rounded square in the die's colour, its face as printed (pips for 1 to 6). */
export function diePicture(kind, face) {
  const [fill, ink] = DIE_COLOURS[kind] || ["#ccc", "#111"];
  const pips = PIPS[face];
  const marks = pips ? pips.map(([cx, cy]) => s("circle", { cx, cy, r: 8, fill: ink }))
    : [s("text", { x: 50, y: 54, "text-anchor": "middle", "dominant-baseline": "middle", fill: ink,
                   "font-size": face.length > 6 ? 13 : 20, "font-weight": 700 }, face.replace("+", " + "))];
  return s("svg", { viewBox: "0 0 100 100", class: "face-picture", role: "img", "aria-label": `${kind} die: ${face}` },
           s("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, fill, stroke: "#000", "stroke-width": 3 }), marks);
}

/** "basic die" → "basic"; a deck or a bag ("mod deck", "guard bag") is no die. */
const dieKind = (die) => (die.endsWith(" die") ? die.slice(0, -" die".length) : null);

/** How a result is said: a die's face as printed, a card by its id and name, a chip by its name. */
function resultPicture(die, face, names) {
  const kind = dieKind(die);
  if (kind) return diePicture(kind, face);
  const name = names.get(face);
  return h("span", { class: "drawn" }, name ? [h("b", {}, face), ` ${name}`] : face);
}

/** Every card's name by its id, from anywhere in the game state (decks, hands, inventories). */
export function cardNames(state) {
  const names = new Map();
  const walk = (value) => {
    if (Array.isArray(value)) { value.forEach(walk); return; }
    if (!value || typeof value !== "object") return;
    if (typeof value.id === "string" && typeof value.name === "string") names.set(value.id, value.name);
    Object.values(value).forEach(walk);
  };
  walk(state);
  return names;
}

/** A request's kinds with the results each may show: the request's own list, else the die's printed faces. */
function kindsOf(pending, printed) {
  return pending.dice.map((d) => {
    const faces = d.faces && d.faces.length ? d.faces : (printed.get(d.die) || []);
    return { die: d.die, count: d.count, faces: [...new Set(faces)] };
  });
}

/** "Roll the burncycle die", "Draw from the mod deck", or the action the dice are for. */
function headline(pending, kinds) {
  if (kinds.length === 1 && kinds[0].die === pending.purpose) {
    return `${dieKind(pending.purpose) ? "Roll" : "Draw from"} the ${pending.purpose} at the table`;
  }
  return `At the table, for ${pending.purpose}`;
}

/** "2 basic dice", "1 card from the mod deck", "1 chip from the guard bag". */
function countWords(die, n) {
  if (dieKind(die)) return plural(n, die, `${dieKind(die)} dice`);
  return `${plural(n, die.endsWith(" bag") ? "chip" : "card")} from the ${die}`;
}

/**
 * The panel for one request. `typed` maps a die's name to the faces tapped for it so far (kept by the caller
 * across redraws); `on` holds the callbacks: tap(die, face), untap(die), send(faces in order), cancel(),
 * tableRolls() (the table rolls or draws them instead).
 */
export function dicePanel(pending, typed, printed, names, on) {
  const kinds = kindsOf(pending, printed);
  const missing = kinds.filter((k) => (typed.get(k.die) || []).length < k.count);
  const rows = kinds.map((k) => {
    const mine = typed.get(k.die) || [];
    const left = k.count - mine.length;
    const what = dieKind(k.die) ? "each face as it lies on the table"
      : `the one${k.count > 1 ? "s" : ""} drawn at the table`;
    const head = left > 0 ? `${countWords(k.die, left)} still to tap: ${what}` : `${countWords(k.die, k.count)}: all tapped`;
    const pickers = k.faces.length
      ? h("div", { class: "faces" }, k.faces.map((face) =>
          h("button", { type: "button", "data-face": face, "data-die": k.die, disabled: left <= 0,
                        "aria-label": `${k.die}: ${face}`, onclick: () => on.tap(k.die, face) },
            resultPicture(k.die, face, names))))
      : h("p", { class: "warning" }, `The page does not know what the ${k.die} can show: let the table `
          + `${dieKind(k.die) ? "roll" : "draw"} it (below).`);
    return h("div", { class: "die-kind", "data-kind": k.die, "data-left": String(left) },
             h("label", {}, head), pickers,
             h("div", { class: "typed", "aria-label": `${k.die}: tapped so far` },
               mine.length ? mine.map((face) => resultPicture(k.die, face, names)) : null,
               mine.length ? h("button", { type: "button", class: "quiet", onclick: () => on.untap(k.die) },
                               "Take back the last one") : null));
  });
  const sent = pending.faces.length ? h("p", { class: "note" }, `Already taken for this action: ${pending.faces.join(", ")}`)
    : null;
  const allTyped = missing.length === 0;
  const ready = kinds.flatMap((k) => (typed.get(k.die) || []).slice(0, k.count));
  return [
    h("b", {}, headline(pending, kinds)),
    ...(sent ? [sent] : []), ...rows,
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "dice-send", disabled: !allTyped,
                    onclick: () => on.send(ready) }, allTyped ? "Send" : `Send (${plural(
                      missing.reduce((n, k) => n + k.count - (typed.get(k.die) || []).length, 0), "result")} to tap)`),
      h("button", { type: "button", class: "quiet", id: "dice-table", onclick: () => on.tableRolls() },
        kinds.every((k) => dieKind(k.die)) ? "Let the table roll these"
          : kinds.some((k) => dieKind(k.die)) ? "Let the table roll and draw these" : "Let the table draw"),
      h("button", { type: "button", class: "quiet", id: "dice-cancel", onclick: () => on.cancel() }, "Give up the action")),
  ];
}
