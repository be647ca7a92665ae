// The dashboard's entry point: one store of what the table last said (status, state, floor, table view, health,
// LEDs), fed by the live feed, and everything drawn from it. Nothing is asked on a timer: the feed's snapshot
// brings the floor and the LEDs' colours, the floor comes again right after a change only when play changed it
// (its doors, walls, the guards' sight), and the LEDs come when the game relights them.
import { $, api, h, spaced } from "./dom.js";
import { Board } from "./board.js";
import { LiveFeed } from "./live.js";
import { drawHealth, drawLeds, drawState, drawTable, logChanges } from "./panels.js";
import { Controls } from "./controls.js";
import { namesOf } from "./actions.js";
import { Hints, drawWhy } from "./hints.js";
import { loadWords } from "./words.js";

const LOG_BACKLOG = 60;

const store = { status: {}, state: null, table: {}, health: {}, floor: null, session: { player: false, read_only: false } };
let started = false;

function say(text, bad) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("bad", Boolean(bad));
  m.dataset.offline = "false";
}

const controls = new Controls(store, say);
const board = new Board($("board"), $("board-wrap"), store, controls);
const hints = new Hints(store, controls, say);

let shown = false;  // the board was drawn once: from then on a tap's own answer is painted before a change

function drawBoardNow() {
  if (!board.draw()) return;
  shown = true;
  if (!performance.getEntriesByName("board-drawn").length && store.state) performance.mark("board-drawn");  // bench
  const misplaced = store.table.misplaced || [];
  $("board-note").replaceChildren(...(misplaced.length
    ? [h("b", {}, "The camera and the game disagree (circled on the board): put the chip where the game has it, "
                  + "or drag the unit to correct the game."), h("ul", {}, misplaced.map((m) => h("li", {}, spaced(m.text, places()))))]
    : []));
}

/** Space names in the table's texts, for the board to light when one is tapped. */
const places = () => namesOf(store.state, store.floor).places;


/** The floor as the feed brought it, drawn up to change `number` (the board says which: data-number). */
function takeFloor(floor, number) {
  const first = !store.floor;
  store.floor = floor && { ...floor, number };
  if (first) due.table = true;  // the texts' space names are known once the floor is
}



/** After the next paint: a tap's own answer (a button pressed, a dialog closed) is on the screen before a change
 *  from the live feed is drawn, which on a slow phone takes longer than a frame. A hidden page paints nothing, so
 *  a timer stands in for the frame there. */
function afterPaint() {
  return new Promise((resolve) => {
    let done = false;
    const go = () => { if (!done) { done = true; resolve(); } };
    requestAnimationFrame(() => setTimeout(go, 0));
    setTimeout(go, 100);
  });
}

/** A task's end, so that a tap waiting behind a long redraw is handled between its parts. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** What the live feed changed and is still to be drawn: drawn once after the next paint, in parts with a task
 *  between, however many messages came meanwhile (a corporation's turn sends several in a row). */
const due = { board: false, state: false, table: false };
let drawing = false;

async function drawDue() {
  if (drawing) return;
  drawing = true;
  if (shown) await afterPaint();  // until the board is first shown there is no tap to answer first
  while (due.board || due.state || due.table) {
    if (due.state) {
      due.state = false;
      $("title").textContent = store.status.title || "burncycle-table";
      if (store.status.game) $("replay-link").href = `/games/${store.status.game}/replay`;
      drawState(store.state);
      controls.refresh();
      hints.refresh();
      await nextTask();
    }
    if (due.board) {
      due.board = false;
      drawBoardNow();
      await nextTask();
    }
    if (due.table) {
      due.table = false;
      drawTableNow();
      await nextTask();
    }
  }
  drawing = false;
}

function redraw(parts) {
  Object.assign(due, parts);
  drawDue();
}

const changed = () => redraw({ state: true, board: true });

async function backlog(number) {
  const r = await api("GET", `/api/changes?after=${Math.max(0, number - LOG_BACKLOG)}&limit=${LOG_BACKLOG}`);
  if (r.ok) logChanges(r.body.changes, true);
}

/** A question of the table view answered from its button. */
const answer = (question, option) => controls.answer(question, option);
const drawTableNow = () => drawTable(store.table, answer, places());

function onMessage(m) {
  if (m.type === "snapshot") {
    if (!started) {  // what the board does not need waits until the first snapshot is in
      started = true;
      address();
    }
    Object.assign(store, { status: m.status, state: m.state, table: m.table || {}, health: m.health || {} });
    takeFloor(m.floor, m.number);
    backlog(m.number);
    drawHealth(store.health);
    drawWhy(store.health);
    drawLeds(m.leds);
    controls.checkSession();  // who this phone is, asked again before anything is offered (a restart forgets)
    redraw({ state: true, table: true, board: true });
  } else if (m.type === "change") {
    Object.assign(store, { status: m.status, state: m.state });
    if (store.floor) store.floor.number = m.number;  // the change the board is drawn up to
    logChanges([m.change], false);
    changed();
  } else if (m.type === "table") {
    if (JSON.stringify(m.table) === JSON.stringify(store.table)) return;
    store.table = m.table;
    redraw({ table: true, board: true });
  } else if (m.type === "health") {
    store.health = m.health;
    drawHealth(store.health);
    drawWhy(store.health);
  } else if (m.type === "floor") {
    takeFloor(m.floor, Math.max(m.number, store.status.number || 0));
    redraw({ board: true });
  } else if (m.type === "leds") {
    drawLeds(m.leds);
  } else if (m.type === "hint") {
    hints.take(m.hint);
  }
}

function onLine(up) {
  $("offline").hidden = up;
  document.body.classList.toggle("offline", !up);
  controls.online(up);
}

async function address() {
  const r = await api("GET", "/api/address");
  if (!r.ok) return;
  const link = $("address");
  link.textContent = r.body.url;
  link.href = r.body.url;
  $("qr").src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(r.body.qr_svg)}`;
  $("qr").hidden = false;
}

$("log").replaceChildren(h("li", { class: "none" }, "Waiting for the table…"));
new LiveFeed(onMessage, onLine).start();
// the game's words (a guard's facing), once: what was named before they came is named again
loadWords().then((came) => { if (came) { drawBoardNow(); controls.draw(); } });
