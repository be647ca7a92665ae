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
