// Building the page's nodes. Text always goes in as text nodes (never as markup), because names and messages
// come from floor files, MQTT and the camera: `h("li", {}, text)` cannot run anything a text says.
export const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "text", otherNode). */
export const h = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);
/** An SVG element, the same way. */
export const s = (tag, attrs, ...children) => build(document.createElementNS(SVG_NS, tag), attrs, children);
export const $ = (id) => document.getElementById(id);

/** A list's items, or one dim line saying it is empty. */
export function fill(list, items, empty) {
  list.replaceChildren(...(items.length ? items : [h("li", { class: "none" }, empty)]));
}

/** A request to the table: JSON in and out; never throws for a refusal (the caller shows `message`). */
export async function api(method, path, body) {
  const init = { method, cache: "no-store", credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    return { ok: false, status: 0, body: { error: "offline", message: "the table is not answering" } };
  }
  let parsed = null;
  try { parsed = await response.json(); } catch (err) { parsed = null; }
  if (!response.ok && (parsed === null || typeof parsed.message !== "string")) {
    parsed = { error: "error", message: `${method} ${path}: the table answered ${response.status}` };
  }
  return { ok: response.ok, status: response.status, body: parsed };
}

/** "nano" → "Nano", "end_move" → "end move": a code named for people when the game gives no words. */
export const words = (code) => String(code).replaceAll("_", " ");
export const plural = (n, one, many) => `${n} ${n === 1 ? one : (many || one + "s")}`;

// a space as the floor format names it: column letters, then the row ("F3", "AB12")
const SPACE_WORDS = /\b([A-Z]{1,2}[1-9]\d?)\b/g;
// words after which a name that is both a unit and a space ("G1") is the space
const PLACE_WORDS = /(?:\b(?:to|from|at|on|onto|beyond|towards|via|into|of)|[→>])\s*$/i;

/** A text with each space name it holds wrapped as `<span class="space" data-space>` (the board lights the space
 *  when it is tapped); `places` is {spaces: Set, units: Set}: a name that is also a unit's id ("G1") is a space
 *  only after a word of place ("to G1"). */
export function spaced(text, places) {
  const out = [];
  let last = 0;
  for (const m of String(text).matchAll(SPACE_WORDS)) {
    const name = m[1], before = text.slice(0, m.index);
    if (!places.spaces.has(name) || (places.units.has(name) && !PLACE_WORDS.test(before))) continue;
    out.push(before.slice(last), h("span", { class: "space", "data-space": name }, name));
    last = m.index + name.length;
  }
  out.push(String(text).slice(last));
  return out.filter((part) => part !== "");
}

/** Ask before something that costs threat or ends something: the page's `<dialog id="confirm">`; resolves to
 *  true for its yes button, false for no, Escape or a tap beside it.
 *
 *  The dialog is opened with show(), not showModal(), and made modal by hand (it covers the page, keeps Tab
 *  among its buttons, aria-modal says so): a modal dialog makes the rest of the page inert, which restyles
 *  every element of the page, the board's thousand or so among them, in the frame of the tap (90 ms on a phone
 *  four times slower than this machine, against under 1 ms). */
export function confirmed(question, detail, yes) {
  const dialog = $("confirm");
  $("confirm-question").textContent = question;
  $("confirm-detail").textContent = detail || "";
  $("confirm-yes").textContent = yes || "Yes";
  const buttons = [$("confirm-yes"), $("confirm-no")];
  const keys = (e) => {
    if (e.key === "Escape") { e.preventDefault(); dialog.close("no"); }
    if (e.key === "Tab") {  // round the dialog's two buttons, never out to the page beneath
      e.preventDefault();
      const at = buttons.indexOf(document.activeElement);
      buttons[(at + (e.shiftKey ? buttons.length - 1 : 1)) % buttons.length].focus();
    }
  };
  const beside = (e) => { if (e.target === dialog) dialog.close("no"); };
  return new Promise((resolve) => {
    const done = (answer) => {
      dialog.removeEventListener("close", closed);
      document.removeEventListener("keydown", keys, true);
      dialog.removeEventListener("click", beside);
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    const closed = () => done(dialog.returnValue === "yes");
    dialog.returnValue = "";
    dialog.addEventListener("close", closed);
    document.addEventListener("keydown", keys, true);
    dialog.addEventListener("click", beside);
    dialog.show();
    $("confirm-no").focus();
  });
}
