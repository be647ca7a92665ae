// A game after the fact: its summary with the threat drawn over the actions and rounds, and the game stepped
// through action by action (the table's own replay of its record), read-only. The board is the live page's
// drawing (web/static/floor.js) of the floor each step carries, laid out as GET /api/floor lays it out.
import { CELL, MARGIN, drawBoard, pinNames } from "/static/floor.js";
import { json, el, say, svg } from "/static/tools.js";
import { $ } from "/static/dom.js";
import { facingWord, loadWords } from "/static/words.js";

const game = Number((location.pathname.match(/\/games\/(\d+)\/replay/) || [])[1]);
const CHART = { w: 400, h: 170, left: 24, right: 8, top: 10, bottom: 24 };  // w: the chart's width on screen
const MIN_CELL = 26;  // CSS px a space at least, as on the live page: the frame scrolls on a narrow phone
let summary = null;
let k = 0;
let asked = 0;  // the newest step asked for: a slow answer to an older one is dropped

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function showSummary() {
  const s = summary;
  $("title").textContent = `Replay: ${s.title}`;
  document.title = `Replay: ${s.title} · burncycle table`;
  const outcome = $("outcome");
  outcome.textContent = s.outcome ? `${s.outcome.result === "victory" ? "Victory" : "Defeat"}: ${s.outcome.text}`
                                  : "The game is not over (yet).";
  outcome.className = `outcome ${s.outcome ? s.outcome.result : ""}`.trim();
  const highest = Math.max(...s.threat_by_action);
  const kinds = Object.entries(s.actions_by_kind).slice(0, 4).map(([kind, n]) => `${n} ${kind.replace(/_/g, " ")}`);
  $("facts").replaceChildren(
    el("li", {}, el("b", {}, plural(s.rounds, "round"))),
    el("li", {}, el("b", {}, plural(s.actions, "action")), kinds.length ? ` (${kinds.join(", ")}${Object.keys(s.actions_by_kind).length > 4 ? ", …" : ""})` : ""),
    el("li", {}, "threat ", el("b", {}, `${s.start_threat} → ${s.threat_by_action[s.threat_by_action.length - 1]}`), `, highest ${highest}`));
  const slider = $("slider");
  slider.max = String(s.actions);
  drawChart();
}

function scale() {
  const s = summary;
  const top = Math.max(6, Math.ceil((Math.max(...s.threat_by_action) + 1) / 5) * 5);
  const x = (i) => CHART.left + (s.actions ? i / s.actions : 0) * (CHART.w - CHART.left - CHART.right);
  const y = (t) => CHART.h - CHART.bottom - (t / top) * (CHART.h - CHART.top - CHART.bottom);
  return { top, x, y };
}

function drawChart() {
  const s = summary;
  const chart = $("chart");
  CHART.w = Math.max(280, Math.round(chart.parentElement.clientWidth - 24));  // drawn at its size: text stays readable
  const { top, x, y } = scale();
  chart.setAttribute("viewBox", `0 0 ${CHART.w} ${CHART.h}`);
  chart.replaceChildren();
  for (let t = 0; t <= top; t += 5) {
    chart.append(svg("line", { class: "axis", x1: CHART.left, x2: CHART.w - CHART.right, y1: y(t), y2: y(t) }),
                 svg("text", { class: "label", x: 3, y: y(t) + 4 }, t));
  }
  const every = Math.max(1, Math.ceil(s.rounds / 12));
  s.round_by_action.forEach((round, i) => {
    if (i === 0 || round === s.round_by_action[i - 1]) return;
    chart.append(svg("line", { class: "round-line", x1: x(i), x2: x(i), y1: CHART.top, y2: CHART.h - CHART.bottom }));
    if (round % every === 0) chart.append(svg("text", { class: "label", x: x(i) + 2, y: CHART.h - 7 }, `R${round}`));
  });
  const points = s.threat_by_action.map((t, i) => `${x(i).toFixed(1)},${y(t).toFixed(1)}`);
  chart.append(svg("polyline", { class: "threat", points: points.join(" ") }));
  s.round_by_action.forEach((round, i) => {
    const ends = i === s.actions || s.round_by_action[i + 1] !== round;
    if (i > 0 && ends) {
      const dot = svg("circle", { class: "round-end", cx: x(i), cy: y(s.threat_by_action[i]), r: 3 });
      dot.append(svg("title", {}, `round ${round}: threat ${s.threat_by_action[i]}`));
      chart.append(dot);
    }
  });
  chart.append(svg("line", { class: "cursor", id: "cursor", x1: x(k), x2: x(k), y1: CHART.top, y2: CHART.h - CHART.bottom }));
}

function moveCursor() {
  const cursor = $("cursor");
  if (!cursor) return;
  const { x } = scale();
  cursor.setAttribute("x1", x(k));
  cursor.setAttribute("x2", x(k));
}

async function go(to) {
  k = Math.max(0, Math.min(summary.actions, to));
  $("slider").value = String(k);
  moveCursor();
  $("first").disabled = $("prev").disabled = k === 0;
  $("next").disabled = $("last").disabled = k === summary.actions;
  const mine = ++asked;
  try {
    const step = await json(`/api/games/${game}/replay/${k}`);
    if (mine !== asked) return;
    showStep(step);
  } catch (err) {
    if (mine === asked) say($("where"), err.message, "problem");
  }
}

function showStep(step) {
  say($("where"), `Action ${step.k} of ${step.entries} · round ${step.round} · threat ${step.threat}` +
                  (step.outcome ? ` · ${step.outcome.result}: ${step.outcome.text}` : ""));
  if (step.entry) {
    const faces = step.entry.faces.length ? ` (dice: ${step.entry.faces.join(", ")})` : "";
    $("action").textContent = `${step.entry.number}. ${step.entry.kind.replace(/_/g, " ")}${faces}`;
    $("events").replaceChildren(...(step.entry.events.length ? step.entry.events.map((e) => el("li", {}, e))
                                                              : [el("li", {}, "Nothing to tell the players.")]));
  } else {
    $("action").textContent = "The game's start, before any action.";
    $("events").replaceChildren();
  }
  drawStep(step.floor, step.state);
}

function drawStep(floor, state) {
  const board = $("board");
  drawBoard(board, floor, state, null);
  board.style.width = `max(100%, ${((floor.columns * CELL + MARGIN.left + 1) * MIN_CELL) / CELL}px)`;
  pinBoardNames();
  const bots = state.bots.map((bot) => {
    const where = bot.escaped ? "escaped" : bot.space ? `on ${bot.space}` : "off the floor";
    const flags = [bot.hidden && "hidden", bot.shut_down && "shut down"].filter(Boolean);
    return el("li", {}, el("b", {}, bot.name), ` ${where} · power ${bot.power}${flags.length ? ` · ${flags.join(", ")}` : ""}`);
  });
  const guards = state.security.map((unit) => el("li", {}, el("b", {}, `${unit.id} ${unit.chip}`),
    ` (${unit.rank} level ${unit.level}) on ${unit.space}, facing ${facingWord(unit.facing)}`));
  $("bots").replaceChildren(...(bots.length ? bots : [el("li", {}, "No bots.")]));
  $("security").replaceChildren(...(guards.length ? guards : [el("li", {}, "No security on the floor.")]));
}

/** The room names kept whole in the board's frame as it scrolls (floor.js's pinNames). */
function pinBoardNames() {
  const board = $("board"), frame = board.parentElement;
  const perPx = (board.viewBox.baseVal.width || 1) / (board.getBoundingClientRect().width || 1);
  pinNames(board, frame.scrollLeft * perPx - MARGIN.left, (frame.scrollLeft + frame.clientWidth) * perPx - MARGIN.left);
}

function onChartTap(event) {
  const box = $("chart").getBoundingClientRect();
  const vx = ((event.clientX - box.left) / box.width) * CHART.w;
  const share = (vx - CHART.left) / (CHART.w - CHART.left - CHART.right);
  go(Math.round(share * summary.actions));
}

async function start() {
  if (!game) {
    say($("where"), "This page's address names no game: open it from the table's list of games.", "problem");
    return;
  }
  try {
    [summary] = await Promise.all([json(`/api/games/${game}/summary`), loadWords()]);
  } catch (err) {
    say($("where"), err.message, "problem");
    return;
  }
  showSummary();
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(k - 1));
  $("next").addEventListener("click", () => go(k + 1));
  $("last").addEventListener("click", () => go(summary.actions));
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("chart").addEventListener("click", onChartTap);
  $("board").parentElement.addEventListener("scroll", pinBoardNames, { passive: true });
  window.addEventListener("resize", drawChart);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;  // a slider steps itself
    if (e.key === "ArrowLeft") { e.preventDefault(); go(k - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); go(k + 1); }
  });
  const wanted = Number(new URLSearchParams(location.search).get("k"));
  go(Number.isFinite(wanted) && wanted > 0 ? wanted : summary.actions);
}

start();
