// The camera's picture with what the table reads from it, and the calibration flow: find the registration
// markers, see the grid laid over the picture, confirm it. The pictures show the players: they need the PIN.
// The page looks again when the table says something changed (the live feed: what the camera reads against the
// game, a component's health, a change of the game), never on a timer.
import { json, ApiError, el, picture, say, withPin } from "/static/tools.js";
import { $ } from "/static/dom.js";
import { LiveFeed } from "/static/live.js";

let pictureUrl = null, overlayUrl = null;
let lastStatus = null;  // the camera's status as last asked
let locked = false;
let finding = null;
let refreshing = false, again = false;  // one look at a time (a slow phone never stacks requests up), and one more
                                       // after it when the table said something meanwhile

async function blobUrl(path, old) {
  const url = URL.createObjectURL(await picture(path));
  if (old) URL.revokeObjectURL(old);
  return url;
}

function showLocked(err) {
  locked = true;
  const button = el("button", { type: "button", class: "primary" }, "Type the PIN to see the picture");
  button.addEventListener("click", async () => {
    try {
      await withPin(() => picture("/api/camera/frame.jpg"));
      locked = false;
      $("unlock-slot").replaceChildren();
      refresh();
    } catch (e) {
      say($("health"), e.message, "problem");
    }
  });
  $("unlock-slot").replaceChildren(button);
  say($("health"), "The camera's picture shows the players: type the table's PIN to see it.", "problem");
}

// the markers seen do not fit the board the game is on: after a new game on another floor the mat on the table is
// most likely still the old one, which no calibration of the lens would fix
const MAT_PROBLEMS = ["registration_poor", "registration_failed"];

function matProblem(p, confirmed) {
  const old = confirmed && confirmed.floor !== p.floor ? ` (the grid confirmed last was for ${confirmed.floor})` : "";
  return `The markers in the picture do not fit ${p.floor}, the floor the game is on${old}: if the game has just `
    + `changed floors, put ${p.floor}'s mat on the table, then Find the markers. If that mat is already there, a `
    + "marker may have moved: check them against the markers sheet.";
}

/** The status line: the camera's health, what its newest frame reads, the grid confirmed. */
function showStatus(status) {
  const p = status.picture;
  const line = [p && MAT_PROBLEMS.includes(p.status.code) ? matProblem(p, status.confirmed)
                                                          : `${status.health.state}: ${status.health.message}`];
  if (p) line.push(`${p.markers_seen.length} of 8 markers, ${p.units_seen} chip${p.units_seen === 1 ? "" : "s"} read`);
  if (status.confirmed) line.push(`grid confirmed for ${status.confirmed.floor}${status.confirmed.in_use ? "" : " (not this floor)"}`);
  if (status.confirmed_problem) line.push(status.confirmed_problem);
  if (!locked) say($("health"), line.join(" · "), status.health.state === "ok" ? "ok" : "");
}

/** The table's news: its health pushed is shown as it is (the camera's frames a second move often); a change of
 *  the camera's state, of what it reads against the game, or of the game, is looked at again. */
function heard(message) {
  if (!looking()) return;
  const camera = message.type === "health" && message.health.components.camera;
  if (camera && lastStatus && lastStatus.configured && camera.state === lastStatus.health.state) {
    lastStatus = { ...lastStatus, health: { ...lastStatus.health, message: camera.message } };
    showStatus(lastStatus);
  } else {
    refresh();
  }
}

async function refresh() {
  if (refreshing) { again = true; return; }
  refreshing = true;
  try {
    const status = await json("/api/camera/status");
    if (!status.configured) {
      say($("health"), "This table has no camera: set camera.source in table.toml (docs/service.md).", "problem");
      $("find").disabled = true;
      return;
    }
    lastStatus = status;
    const p = status.picture;
    showStatus(status);
    if (!locked && p) {
      pictureUrl = await blobUrl(`/api/camera/frame.jpg?n=${status.frames}`, pictureUrl);
      $("picture").src = pictureUrl;
    }
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) showLocked(err);
    else say($("health"), err.message, "problem");
  } finally {
    refreshing = false;
    if (again) {
      again = false;
      refresh();
    }
  }
}

function mark(step, state) {
  const node = $(step);
  node.classList.toggle("current", state === "current");
  node.classList.toggle("done", state === "done");
}

async function find() {
  say($("find-status"), "Looking…");
  try {
    finding = await withPin(() => json("/api/calibration/find", { method: "POST" }));
  } catch (err) {
    say($("find-status"), err.message, "problem");
    return;
  }
  mark("step-picture", "done");
  const found = finding.found.map((m) => el("li", { class: "found" }, `✓ ${m.name}: found`));
  const missing = finding.missing.map((m) => el("li", { class: "missing" }, `✗ ${m.name}: ${m.advice}`));
  $("markers").replaceChildren(...found, ...missing);
  const total = finding.found.length + finding.missing.length;
  say($("find-status"), `${finding.found.length} of ${total} markers found. ${finding.status.message}`,
      finding.registered ? "ok" : "problem");
  mark("step-markers", finding.registered ? "done" : "current");
  try {
    overlayUrl = await blobUrl(finding.overlay, overlayUrl);
    $("overlay").src = overlayUrl;
  } catch (err) {
    say($("find-status"), err.message, "problem");
  }
  mark("step-grid", finding.registered ? "current" : "");
  mark("step-confirm", finding.registered ? "current" : "");
  $("confirm").disabled = !finding.registered;
  say($("confirmed"), finding.registered ? "" : "Nothing to confirm until the markers register the board: see above, then look again.");
}

async function confirm() {
  try {
    const saved = await withPin(() => json("/api/calibration/confirm", { method: "POST" }));
    mark("step-grid", "done");
    mark("step-confirm", "done");
    say($("confirmed"), `Saved: ${saved.message}.`, "ok");
    refresh();
  } catch (err) {
    say($("confirmed"), err.message, "problem");
  }
}

$("find").addEventListener("click", find);
$("again").addEventListener("click", find);
$("confirm").addEventListener("click", confirm);
const looking = () => $("live").checked && !document.hidden;
$("live").addEventListener("change", () => { if (looking()) refresh(); });
document.addEventListener("visibilitychange", () => { if (looking()) refresh(); });
new LiveFeed(heard,
             (up) => { if (!up) say($("health"), "The table is not answering: retrying…", "problem"); }).start();
