// What the tool pages (floor editor, camera, replay) share: JSON requests with the table's error messages,
// the PIN asked for when a change needs it, and elements built with text only (nothing from a file, the
// camera or the game is ever parsed as HTML).

export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || `the table answered ${status}`);
    this.status = status;
    this.code = body.error || "error";
    this.body = body;
  }
}

// fetch JSON; a 4xx/5xx becomes an ApiError carrying the table's own message
export async function api(path, { method = "GET", body, raw = false } = {}) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let reply;
  try {
    reply = await fetch(path, options);
  } catch (err) {
    throw new ApiError(0, { error: "unreachable", message: "the table does not answer: is it on, and this phone on its network?" });
  }
  if (!reply.ok) {
    let problem = { error: "error", message: `${method} ${path}: the table answered ${reply.status}` };
    try { problem = await reply.json(); } catch (err) { /* not JSON: keep the status line */ }
    throw new ApiError(reply.status, problem);
  }
  return raw ? reply : reply.json();
}

// a change that needs the table's PIN: on 401, ask for it once (a session cookie follows), then try again
export async function withPin(call) {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    await askPin(err.message);
    return call();
  }
}

export function askPin(why) {
  return new Promise((resolve, reject) => {
    const input = el("input", { type: "password", inputmode: "numeric", autocomplete: "current-password",
                                name: "pin", "aria-label": "the table's PIN" });
    const note = el("p", { class: "note" }, why || "Changing the table needs its PIN.");
    const problem = el("p", { class: "problem", role: "alert" });
    const ok = el("button", { type: "submit", class: "primary" }, "Unlock");
    const cancel = el("button", { type: "button" }, "Cancel");
    const form = el("form", { class: "pin-dialog" },
      el("h2", {}, "The table's PIN"), note,
      el("p", { class: "note" }, "It is printed where the table service started."), input, problem,
      el("div", { class: "row" }, ok, cancel));
    const veil = el("div", { class: "veil" }, form);
    document.body.append(veil);
    input.focus();
    cancel.addEventListener("click", () => { veil.remove(); reject(new ApiError(401, { error: "pin_required", message: "no PIN given: nothing was changed" })); });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api("/api/session", { method: "POST", body: { pin: input.value } });
        veil.remove();
        resolve();
      } catch (err) {
        problem.textContent = err.message;
        input.select();
      }
    });
  });
}

// an element with attributes and children; strings become text nodes, never markup
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

// say something in a status line: kind "ok", "problem" or "" (plain)
export function say(node, text, kind = "") {
  node.textContent = text;
  node.className = `status ${kind}`.trim();
}
