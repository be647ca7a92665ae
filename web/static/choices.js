// The form of an action's choices (the fields GET /api/legal's `choose` names), made of controls only: a
// number for each kind of die and each payer, a list or boxes for a field with options, a selector for each
// movement step of the network step offering the transfers the rules take there, and for a field the listing gives no options for, an input of
// the field's own type (a list typed as "B2/B3, C4/C5"). `read()` gives the action with the choices filled in.
import { h, plural, words } from "./dom.js";
import { FIELDS } from "./actions.js";

const RESERVES = { personal: "the personal reserve", team: "the team reserve", jump: "jumping the tracker" };
const SLOT_FIELDS = ["choose", "asterisk"];

/** How one option of a field is said: a slot with its chip, a card by name, a reserve in words. */
function optionWords(field, value, state, names) {
  if (SLOT_FIELDS.includes(field) && typeof value === "number" && state) {
    const chip = state.burncycle.slots[value - 1];
    return `slot ${value}${chip ? ` (${chip.kind}${chip.degraded ? ", degraded" : ""})` : ""}`;
  }
  if (typeof value === "string" && names.cards.get(value)) return `${names.cards.get(value)} (${value})`;
  if (Array.isArray(value)) return value.map((v) => `option ${v}`).join(" and ");
  return RESERVES[value] || words(value);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const fieldLabel = (field) => {
  const said = FIELDS[field] || words(field);
  return said[0].toUpperCase() + said.slice(1);
};

function diceInputs(legal, action, readers) {
  return legal.dice.map((die) => {
    const input = h("input", { type: "number", min: 0, max: die.most, value: (action.dice || {})[die.field] || 0,
                               name: `dice-${die.field}`, id: `choice-dice-${die.field}` });
    readers.push(() => { action.dice[die.field] = Math.max(0, Math.min(die.most, Number(input.value) || 0)); });
    return h("div", { class: "field" },
             h("label", { for: `choice-dice-${die.field}` },
               `${die.die === `${die.field} die` ? `${die.field[0].toUpperCase()}${die.field.slice(1)} dice` : `The ${die.die}`}`
               + ` (up to ${die.most}; faces ${[...new Set(die.faces)].join(", ")})`), input);
  });
}

function payerInputs(legal, action, names, readers) {
  return Object.entries(legal.payers).map(([bot, most]) => {
    const input = h("input", { type: "number", min: 0, max: most, value: (action.payers || {})[bot] || 0,
                               name: `payer-${bot}`, id: `choice-payer-${bot}` });
    readers.push(() => {
      const n = Math.max(0, Math.min(most, Number(input.value) || 0));
      if (n) action.payers[bot] = n; else delete action.payers[bot];
    });
    return h("div", { class: "field" },
             h("label", { for: `choice-payer-${bot}` }, `${names.bot(bot)} pays (up to ${plural(most, "power", "power")})`),
             input);
  });
}

/** One selector per movement step of the network step that offers a transfer, offering only what the rules take:
 *  the listing's options are every choice of transfers the engine takes (`legal.options.transfers`, a step's number
 *  to "in" or "out"), so a step offers the directions of the choices that agree with the steps before it, and a
 *  step changed rebuilds the ones after it. */
function transferInputs(legal, action, state, readers) {
  const allowed = (legal.options.transfers || [{}]).map((c) => new Map(Object.entries(c).map(([k, v]) => [Number(k), v])));
  const chips = state ? state.burncycle.slots.filter((c) => c && !c.degraded) : [];
  const steps = chips.map((chip, k) => ({ step: k + 1, chip })).filter(({ step }) => allowed.some((c) => c.has(step)));
  const legend = h("legend", {}, "Transfers along a white line, before a step's movement");
  if (!steps.length) {
    return [h("fieldset", { class: "field" }, legend,
              h("p", { class: "note" }, "No white line lies on the IP's way this network step: no transfer to choose."))];
  }
  const said = { "": "no transfer", in: "transfer inward", out: "transfer outward" };
  const selects = new Map(steps.map(({ step }) => [step, h("select", { name: `transfer-${step}`, id: `choice-transfer-${step}` })]));
  const chosen = () => new Map([...selects].filter(([, sel]) => sel.value).map(([step, sel]) => [step, sel.value]));
  /** Each step's directions among the choices that agree with the steps before it (from `from` on). */
  const offer = (from, wanted) => {
    for (const [step, select] of selects) {
      if (step < from) continue;
      const before = [...selects].filter(([k]) => k < step);
      const fits = allowed.filter((c) => before.every(([k, sel]) => (c.get(k) || "") === sel.value));
      const ways = ["", "in", "out"].filter((w) => fits.some((c) => (c.get(step) || "") === w));
      const keep = ways.includes(wanted(step)) ? wanted(step) : ways[0];
      select.replaceChildren(...ways.map((w) => h("option", { value: w, selected: w === keep }, said[w])));
      select.value = keep;
      select.disabled = ways.length < 2;
    }
  };
  const given = new Map(Object.entries(action.transfers || {}).map(([k, v]) => [Number(k), v]));
  offer(1, (step) => given.get(step) || "");
  for (const [step, select] of selects) {
    select.addEventListener("change", () => offer(step + 1, (k) => selects.get(k).value));
  }
  readers.push(() => { action.transfers = Object.fromEntries(chosen()); });
  return [h("fieldset", { class: "field" }, legend, steps.map(({ step, chip }) =>
    h("div", { class: "row" }, h("label", { for: `choice-transfer-${step}` }, `Step ${step} (${chip.kind})`),
      selects.get(step))))];
}

function optionInputs(field, choices, action, state, names, readers) {
  const id = `choice-${field}`;
  if (Array.isArray(action[field])) {
    const boxes = choices.map((c) => h("input", { type: "checkbox", name: field, checked: action[field].some((v) => same(v, c)) }));
    readers.push(() => { action[field] = choices.filter((_, i) => boxes[i].checked); });
    return [h("fieldset", { class: "field" }, h("legend", {}, fieldLabel(field)),
      choices.map((c, i) => h("label", { class: "inline" }, boxes[i], ` ${optionWords(field, c, state, names)}`)))];
  }
  const select = h("select", { name: field, id },
    action[field] === null ? h("option", { value: "" }, "none") : null,
    choices.map((c, i) => h("option", { value: String(i), selected: same(c, action[field]) }, optionWords(field, c, state, names))));
  readers.push(() => { action[field] = select.value === "" ? null : choices[Number(select.value)]; });
  return [h("div", { class: "field" }, h("label", { for: id }, fieldLabel(field)), select)];
}

/** A field the listing offers no options for, typed in as what it is: a list, a number, a yes/no, a word. */
function freeInput(field, action, readers) {
  const id = `choice-${field}`, value = action[field];
  let input, read, hint = "";
  if (typeof value === "boolean") {
    input = h("input", { type: "checkbox", id, name: field, checked: value });
    read = () => input.checked;
  } else if (typeof value === "number") {
    input = h("input", { type: "number", id, name: field, value });
    read = () => Number(input.value) || 0;
  } else if (Array.isArray(value)) {
    input = h("input", { type: "text", id, name: field, value: value.join(", ") });
    hint = " (separated by commas; none: leave it empty)";
    read = () => input.value.split(",").map((v) => v.trim()).filter(Boolean);
  } else {
    input = h("input", { type: "text", id, name: field, value: value ?? "" });
    hint = value === null ? " (none: leave it empty)" : "";
    read = () => input.value.trim() || null;
  }
  readers.push(() => { action[field] = read(); });
  return [h("div", { class: "field" }, h("label", { for: id }, `${fieldLabel(field)}${hint}`), input)];
}

export function choiceForm(legal, state, names) {
  const action = structuredClone(legal.action);
  const readers = [];
  const parts = legal.choose.flatMap((field) => {
    if (field === "dice") return diceInputs(legal, action, readers);
    if (field === "payers") return payerInputs(legal, action, names, readers);
    if (field === "transfers") return transferInputs(legal, action, state, readers);
    if (legal.options[field]) return optionInputs(field, legal.options[field], action, state, names, readers);
    return freeInput(field, action, readers);
  });
  return { parts, read: () => { readers.forEach((r) => r()); return action; } };
}
