// What the tool pages (floor editor, camera, replay) share: JSON requests with the table's error messages,
// the PIN asked for when a change needs it (the dashboard's own PIN dialog, web/static/pin.js), and elements
// built with text only (nothing from a file, the camera or the game is ever parsed as HTML). Requests and
// elements are the dashboard's (web/static/dom.js).

import { api as request, h, s as svgElement } from "/static/dom.js";
import { askPin as askPinDialog } from "/static/pin.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || `the table answered ${status}`);
    this.status = status;
    this.code = body.error || "error";
    this.body = body;
  }
}

// the JSON the table answers, through the dashboard's own request (web/static/dom.js's `api`, which returns every
// reply, refusals included); here a refusal is thrown, as an ApiError carrying the table's own message
export async function json(path, { method = "GET", body } = {}) {
  const reply = await request(method, path, body);
  if (!reply.ok) throw new ApiError(reply.status, reply.body);
  return reply.body;
}

// a picture (the camera's frame, the mat seen from above) as a blob; a refusal, which the table sends as JSON,
// becomes an ApiError like any other
export async function picture(path) {
  let reply;
  try {
    reply = await fetch(path, { cache: "no-store", credentials: "same-origin" });
  } catch (err) {
    throw new ApiError(0, { error: "offline", message: "the table is not answering" });
  }
  if (!reply.ok) {
    let problem = { error: "error", message: `GET ${path}: the table answered ${reply.status}` };
    try { problem = await reply.json(); } catch (err) { /* not JSON: keep the status line */ }
    throw new ApiError(reply.status, problem);
  }
  return reply.blob();
}

// a change that needs the table's PIN: on 401, ask for it once (a session cookie follows), then try again
export async function withPin(call) {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    await askPin(err.code === "pin_required" ? undefined : err.message);  // the dialog says it once
    return call();
  }
}

// the PIN asked in the dashboard's own dialog (web/static/pin.js); a cancelled dialog is a refusal like any other
export async function askPin(why) {
  try {
    await askPinDialog(why);
  } catch (err) {
    throw new ApiError(401, { error: "pin_required", message: err.message });
  }
}

// elements with attributes and children, strings as text nodes, never markup: the dashboard's own builders
export const el = h;
export const svg = svgElement;

// say something in a status line: kind "ok", "problem" or "" (plain)
export function say(node, text, kind = "") {
  node.textContent = text;
  node.className = `status ${kind}`.trim();
}

// "C4" -> [row, col] (columns past Z are two letters, as the floor format names them)
export function spaceAt(name) {
  const m = /^([A-Z]+)(\d+)$/.exec(name || "");
  if (!m) return null;
  let col = 0;
  for (const ch of m[1]) col = col * 26 + (ch.charCodeAt(0) - 64);
  return [Number(m[2]) - 1, col - 1];
}
