// The floor editor: a floor drawn on a grid (walls, doors, features, areas), over the camera's picture of the
// mat when there is one, written in the floor text format (docs/floor-format.md), checked by the table with
// the `validate` command's own messages, and saved to the table's floors folder.
import { json, ApiError, el, picture, say, spaceAt, svg, withPin } from "/static/tools.js";
import { $ } from "/static/dom.js";

const CELL = 40;    // a space, in the drawing's units
const MARGIN = 8;   // around the grid, so the outer walls are not cut off
const EDGE = 7;     // half the width of an edge's tap target
const MOST = 26;

// what a space may hold, the kinds of area and the reserve chips: the floor format's own (GET /api/options, from
// the rules' parser), learnt at the start; the editor adds only a plain space (".") and no space at all ("#")
let FEATURES = [];
let AREA_KINDS = [];
let RESERVES = [""];
const EDGE_KINDS = [["wall", "Wall"], ["door", "Door"], ["open", "Opening"]];
const EDGE_CHARS = { wall: ["|", "-"], door: ["D", "D"], open: [" ", " "] };

const floor = { cols: 6, rows: 4, spaces: [], east: [], south: [], notes: [], areaOf: [], areas: [] };
let tool = { kind: "edge", value: "wall" };
let marked = null;  // where the last check's message points: {space:[r,c]} or {edge:[dir,r,c]}
let checkTimer = 0;
let backdrop = null;  // an object URL of the camera's picture of the mat, for this size
let backdropAsked = 0;  // the newest picture asked for: an answer for an older size is dropped


function blank(cols, rows) {
  const old = { ...floor };
  const get = (grid, r, c, fallback) => (grid[r] && grid[r][c] !== undefined ? grid[r][c] : fallback);
  floor.cols = cols;
  floor.rows = rows;
  floor.spaces = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => get(old.spaces, r, c, ".")));
  floor.east = Array.from({ length: rows }, (_, r) => Array.from({ length: cols - 1 }, (_, c) => get(old.east, r, c, "open")));
  floor.south = Array.from({ length: rows - 1 }, (_, r) => Array.from({ length: cols }, (_, c) => get(old.south, r, c, "open")));
}

const spaceName = (r, c) => `${String.fromCharCode(65 + c)}${r + 1}`;
const isSpace = (r, c) => r >= 0 && c >= 0 && r < floor.rows && c < floor.cols && floor.spaces[r][c] !== "#";

// areas: spaces joined by openings (a wall or a door bounds an area), found as the table will find them
function findAreas() {
  const areaOf = floor.spaces.map((row) => row.map(() => -1));
  const areas = [];
  for (let r = 0; r < floor.rows; r++) {
    for (let c = 0; c < floor.cols; c++) {
      if (!isSpace(r, c) || areaOf[r][c] >= 0) continue;
      const cells = [];
      const todo = [[r, c]];
      areaOf[r][c] = areas.length;
      while (todo.length) {
        const [y, x] = todo.pop();
        cells.push([y, x]);
        const next = [];
        if (x + 1 < floor.cols && floor.east[y][x] === "open") next.push([y, x + 1]);
        if (x > 0 && floor.east[y][x - 1] === "open") next.push([y, x - 1]);
        if (y + 1 < floor.rows && floor.south[y][x] === "open") next.push([y + 1, x]);
        if (y > 0 && floor.south[y - 1][x] === "open") next.push([y - 1, x]);
        for (const [ny, nx] of next) {
          if (isSpace(ny, nx) && areaOf[ny][nx] < 0) {
            areaOf[ny][nx] = areas.length;
            todo.push([ny, nx]);
          }
        }
      }
      cells.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      areas.push(cells);
    }
  }
  // each area keeps the note of a space it holds (a wall drawn through a room keeps its name on one side)
  const used = new Set();
  floor.notes = areas.map((cells, k) => {
    const i = floor.notes.findIndex((n, j) => !used.has(j) && areaOf[n.at[0]] && areaOf[n.at[0]][n.at[1]] === k);
    used.add(i);
    const note = i >= 0 ? floor.notes[i] : { kind: "room", name: `Area ${k + 1}`, surveillance: 0, reserve: "" };
    return { ...note, at: cells[0] };
  });
  floor.areaOf = areaOf;
  floor.areas = areas;
}

// -- the floor as text (docs/floor-format.md) --

function edgeChar(kind, vertical, a, b) {
  if (isSpace(...a) && isSpace(...b)) return EDGE_CHARS[kind][vertical ? 0 : 1];
  if (isSpace(...a) || isSpace(...b)) return vertical ? "|" : "-";  // a space beside a void or the mat's edge
  return " ";
}

function floorText() {
  const lines = [];
  for (let r = 0; r <= floor.rows; r++) {
    let edges = "+";
    for (let c = 0; c < floor.cols; c++) {
      const kind = r > 0 && r < floor.rows ? floor.south[r - 1][c] : "wall";
      edges += edgeChar(kind, false, [r - 1, c], [r, c]) + "+";
    }
    lines.push(edges);
    if (r === floor.rows) break;
    let spaces = "";
    for (let c = 0; c <= floor.cols; c++) {
      const kind = c > 0 && c < floor.cols ? floor.east[r][c - 1] : "wall";
      spaces += edgeChar(kind, true, [r, c - 1], [r, c]);
      if (c < floor.cols) spaces += floor.spaces[r][c];
    }
    lines.push(spaces);
  }
  const title = $("title").value.replace(/[\r\n]/g, " ").trim() || "My floor";
  const areas = floor.notes.map((n) => {
    let line = `  ${spaceName(...n.at)} ${n.kind} "${n.name.replace(/["\\]/g, "")}"`;
    if (n.kind === "room" && n.surveillance > 0) line += ` surveillance=${n.surveillance}`;
    if (n.reserve && (n.kind === "room" || n.kind === "outdoor")) line += ` reserve=${n.reserve}`;
    return line;
  });
  return [`name: ${title}`, `level: ${$("level").value}`, "", "grid:", ...lines, "", "areas:", ...areas, ""].join("\n");
}
const GRID_FIRST_LINE = 5;  // the grid's first line in floorText(), counted from 1

// a floor file read back into the editor (a shipped or saved floor to start from), through the parser the table
// plays on (POST /api/floors/parse): the editor has no floor parser of its own
async function readFloor(text, name) {
  const read = await json("/api/floors/parse", { method: "POST", body: { text, name } });
  if (!read.ok) throw new Error(read.message);
  const plan = read.floor;
  const { rows, cols } = plan;
  if (rows > MOST || cols > MOST) throw new Error(`this floor's grid is larger than ${MOST} spaces across or down`);
  Object.assign(floor, { cols, rows, spaces: plan.spaces, east: plan.east, south: plan.south });
  floor.notes = plan.areas.map((a) => ({ at: spaceAt(a.space), kind: a.kind, name: a.name,
                                          surveillance: a.surveillance, reserve: a.reserve || "" }));
  $("title").value = plan.name;
  $("level").value = String(plan.level);
  $("cols").value = cols;
  $("rows").value = rows;
}

// -- drawing --

function hue(k) { return (200 + k * 137) % 360; }

function draw() {
  findAreas();
  const grid = $("grid");
  const w = floor.cols * CELL + 2 * MARGIN;
  const h = floor.rows * CELL + 2 * MARGIN;
  grid.setAttribute("viewBox", `0 0 ${w} ${h}`);
  grid.style.setProperty("--cols", String(floor.cols));
  grid.classList.toggle("zoomed", $("zoom").checked);
  grid.replaceChildren();
  if (backdrop) {
    grid.append(svg("image", { href: backdrop, x: MARGIN, y: MARGIN, width: floor.cols * CELL, height: floor.rows * CELL,
                               preserveAspectRatio: "none" }));
  }
  for (let r = 0; r < floor.rows; r++) {
    for (let c = 0; c < floor.cols; c++) {
      const ch = floor.spaces[r][c];
      const k = floor.areaOf[r][c];
      const cls = ["space", ch === "#" && "void", isMarked("space", r, c) && "marked"].filter(Boolean).join(" ");
      const rect = svg("rect", { class: cls, x: MARGIN + c * CELL + EDGE, y: MARGIN + r * CELL + EDGE,
                                 width: CELL - 2 * EDGE, height: CELL - 2 * EDGE, rx: 3, "data-space": `${r}:${c}` });
      // colours through the CSSOM: the page's Content-Security-Policy refuses style attributes
      if (k >= 0) rect.style.fill = backdrop ? `hsl(${hue(k)} 45% 30% / .35)` : `hsl(${hue(k)} 35% 24%)`;
      rect.append(svg("title", {}, `${spaceName(r, c)}: ${FEATURES.find((f) => f[0] === ch)[1]}`));
      grid.append(rect);
      if (ch !== "." && ch !== "#") {
        grid.append(svg("text", { class: "feature", x: MARGIN + (c + 0.5) * CELL, y: MARGIN + (r + 0.58) * CELL }, ch));
      }
    }
  }
  for (const note of floor.notes) {
    grid.append(svg("text", { class: "area-name", x: MARGIN + note.at[1] * CELL + 5, y: MARGIN + note.at[0] * CELL + 11 },
                    note.name.slice(0, 9)));
  }
  for (let r = 0; r < floor.rows; r++) {
    for (let c = 0; c <= floor.cols; c++) edgeRect(grid, "e", r, c);
  }
  for (let r = 0; r <= floor.rows; r++) {
    for (let c = 0; c < floor.cols; c++) edgeRect(grid, "s", r, c);
  }
  drawAreas();
  scheduleCheck();
}

// one edge: "e" is the vertical line east of column c-1 (west of column c), "s" the line above row r
function edgeRect(grid, dir, r, c) {
  const outer = dir === "e" ? c === 0 || c === floor.cols : r === 0 || r === floor.rows;
  const kind = outer ? "wall" : dir === "e" ? floor.east[r][c - 1] : floor.south[r - 1][c];
  const x = MARGIN + c * CELL, y = MARGIN + r * CELL;
  const t = kind === "open" ? 1.5 : 5;  // a wall or a door is drawn corner to corner, an opening as a faint line
  const line = dir === "e" ? { x: x - t / 2, y: y - 2.5, width: t, height: CELL + 5 }
                           : { x: x - 2.5, y: y - t / 2, width: CELL + 5, height: t };
  const mark = !outer && isMarked("edge", dir, dir === "e" ? r : r - 1, dir === "e" ? c - 1 : c);
  grid.append(svg("rect", { ...line, class: `edge ${outer ? "outer" : kind}${mark ? " marked" : ""}` }));
  if (outer) return;
  // a wider invisible target on top, so a finger finds the edge
  const hit = dir === "e" ? { x: x - EDGE, y: y + 4, width: 2 * EDGE, height: CELL - 8 }
                          : { x: x + 4, y: y - EDGE, width: CELL - 8, height: 2 * EDGE };
  const target = svg("rect", { ...hit, class: "edge target", "data-edge": `${dir}:${dir === "e" ? r : r - 1}:${dir === "e" ? c - 1 : c}` });
  const between = dir === "e" ? `${spaceName(r, c - 1)} and ${spaceName(r, c)}` : `${spaceName(r - 1, c)} and ${spaceName(r, c)}`;
  target.append(svg("title", {}, `${kind} between ${between}`));
  grid.append(target);
}

function isMarked(what, ...where) {
  return marked !== null && marked[what] !== undefined && marked[what].join(":") === where.join(":");
}

function drawAreas() {
  const list = $("areas");
  list.replaceChildren();
  floor.notes.forEach((note, k) => {
    const kind = el("select", { "aria-label": `kind of area ${k + 1}` },
      AREA_KINDS.map((a) => el("option", { value: a, selected: a === note.kind }, a === "safe" ? "safe zone" : a)));
    const name = el("input", { class: "area-name-input", value: note.name, maxlength: 40, "aria-label": `name of area ${k + 1}` });
    const surveillance = el("select", { "aria-label": `surveillance dice of area ${k + 1}`, disabled: note.kind !== "room" },
      [0, 1, 2].map((n) => el("option", { value: n, selected: n === note.surveillance }, String(n))));
    const reserve = el("select", { "aria-label": `reserve chip of area ${k + 1}`, disabled: !["room", "outdoor"].includes(note.kind) },
      RESERVES.map((r) => el("option", { value: r, selected: r === note.reserve }, r || "none")));
    kind.addEventListener("change", () => { note.kind = kind.value; draw(); });
    name.addEventListener("input", () => { note.name = name.value; scheduleCheck(); });
    name.addEventListener("change", draw);
    surveillance.addEventListener("change", () => { note.surveillance = Number(surveillance.value); scheduleCheck(); });
    reserve.addEventListener("change", () => { note.reserve = reserve.value; scheduleCheck(); });
    const cells = floor.areas[k].length;
    const item = el("li", {},
      el("span", { class: "where" }, `${spaceName(...note.at)} · ${cells} space${cells === 1 ? "" : "s"}`),
      el("label", {}, "Kind", kind), el("label", {}, "Name", name),
      el("label", {}, "Surveillance", surveillance), el("label", {}, "Reserve", reserve));
    item.style.setProperty("--swatch", `hsl(${hue(k)} 45% 45%)`);
    list.append(item);
  });
  if (!floor.notes.length) list.append(el("li", {}, "No spaces yet: every space is a void."));
}

// -- checking and saving --

function scheduleCheck() {
  $("text").textContent = floorText();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 250);
}

async function check() {
  const name = $("name").value || "floor";
  try {
    const result = await json("/api/floors/check", { method: "POST", body: { text: floorText(), name } });
    const before = JSON.stringify(marked);
    marked = result.ok ? null : pointAt(result.message);
    say($("check"), result.message, result.ok ? "ok" : "problem");
    $("check").dataset.ok = String(result.ok);
    if (JSON.stringify(marked) !== before) draw();
  } catch (err) {
    say($("check"), err.message, "problem");
  }
}

// "my-floor.floor:9:4: ..." -> the space or edge at that line and column of the grid
function pointAt(message) {
  const m = message.match(/\.floor:(\d+):(\d+):/);
  if (!m) return null;
  const i = Number(m[1]) - GRID_FIRST_LINE, j = Number(m[2]) - 1;
  if (i < 0 || i > 2 * floor.rows || j < 0 || j > 2 * floor.cols) return null;
  if (i % 2 === 1 && j % 2 === 1) return { space: [(i - 1) / 2, (j - 1) / 2] };
  if (i % 2 === 1) return { edge: ["e", (i - 1) / 2, j / 2 - 1] };
  if (j % 2 === 1) return { edge: ["s", i / 2 - 1, (j - 1) / 2] };
  return null;
}

async function save() {
  const name = $("name").value.trim();
  say($("saved"), "Saving…");
  try {
    const result = await withPin(() => json("/api/floors", { method: "POST", body: { name, text: floorText() } }));
    say($("saved"), `Saved as ${result.name}: ${result.message}. It can be chosen for a new game now.`, "ok");
    loadList(name);
  } catch (err) {
    say($("saved"), err.message, "problem");
  }
}

async function loadList(selected = "") {
  try {
    const { floors } = await json("/api/floors");
    const start = $("start");
    const first = start.firstElementChild;
    start.replaceChildren(first, ...floors.map((f) => el("option", { value: f.name, selected: f.name === selected },
      `${f.title || f.name} (${f.source === "shipped" ? "shipped" : "saved"}${f.cols ? `, ${f.cols}×${f.rows}` : ""})`)));
  } catch (err) {
    say($("check"), err.message, "problem");
  }
}

async function startFrom(name) {
  if (!name) return;
  try {
    const { text, source } = await json(`/api/floors/${encodeURIComponent(name)}`);
    await readFloor(text, name);
    if (source === "saved") $("name").value = name;
    await loadBackdrop();
    draw();
  } catch (err) {
    say($("check"), err.message, "problem");
  }
}

// the camera's picture of the mat, straightened onto this grid by the registration markers around it
async function loadBackdrop() {
  const note = $("backdrop-note");
  const mine = ++backdropAsked;
  if (backdrop) URL.revokeObjectURL(backdrop);
  backdrop = null;
  try {
    const mat = await picture(`/api/camera/mat.jpg?cols=${floor.cols}&rows=${floor.rows}`);
    if (mine !== backdropAsked) return;
    backdrop = URL.createObjectURL(mat);
    note.replaceChildren("Under the grid: the camera's picture of the mat, straightened by its registration markers.");
  } catch (err) {
    if (mine !== backdropAsked) return;
    if (err instanceof ApiError && err.status === 401) {
      const unlock = el("button", { type: "button" }, "Show the camera's picture");
      unlock.addEventListener("click", () => withPin(() => json("/api/session")
        .then((s) => { if (!s.player) throw new ApiError(401, { message: "the camera's picture needs the table's PIN" }); }))
        .then(loadBackdrop).then(draw).catch((e) => note.replaceChildren(e.message)));
      note.replaceChildren("The camera's picture of the mat shows the players, so it needs the table's PIN. ", unlock);
    } else {
      note.replaceChildren(`No camera picture under the grid: ${err.message}`);
    }
  }
}

function toolButtons() {
  const edges = $("edge-tools"), spaces = $("space-tools");
  const press = (button) => {
    for (const b of document.querySelectorAll("#edge-tools button, #space-tools button")) b.setAttribute("aria-pressed", "false");
    button.setAttribute("aria-pressed", "true");
  };
  for (const [value, label] of EDGE_KINDS) {
    const b = el("button", { type: "button", "data-tool": `edge:${value}`, "aria-pressed": String(value === "wall") }, label);
    b.addEventListener("click", () => { tool = { kind: "edge", value }; press(b); });
    edges.append(b);
  }
  for (const [value, label] of FEATURES) {
    const b = el("button", { type: "button", "data-tool": `space:${value}`, "aria-pressed": "false", title: label },
      value === "." ? "plain" : value === "#" ? "void" : `${value} ${label}`);
    b.addEventListener("click", () => { tool = { kind: "space", value }; press(b); });
    spaces.append(b);
  }
}

function onGridClick(event) {
  const target = event.target.closest("[data-edge], [data-space]");
  if (!target) return;
  if (target.dataset.edge && tool.kind === "edge") {
    const [dir, r, c] = target.dataset.edge.split(":");
    const grid = dir === "e" ? floor.east : floor.south;
    grid[Number(r)][Number(c)] = grid[Number(r)][Number(c)] === tool.value ? "open" : tool.value;
  } else if (target.dataset.space && tool.kind === "space") {
    const [r, c] = target.dataset.space.split(":").map(Number);
    floor.spaces[r][c] = floor.spaces[r][c] === tool.value ? "." : tool.value;
  } else {
    return;
  }
  draw();
}

function resize() {
  const clamp = (v) => Math.max(1, Math.min(MOST, Math.round(Number(v)) || 1));
  const cols = clamp($("cols").value), rows = clamp($("rows").value);
  $("cols").value = cols;
  $("rows").value = rows;
  blank(cols, rows);
  loadBackdrop().then(draw);
  draw();
}

/** The floor format's words, from the table: what each space character means and what people call it. */
function learnFormat(options) {
  // (in the rules' order: an object's keys "1", "2", "3" would come first, its feature names keep theirs)
  const charOf = new Map(Object.entries(options.features).map(([ch, feature]) => [feature, ch]));
  const features = Object.entries(options.feature_words).map(([feature, word]) => [charOf.get(feature), word]);
  FEATURES = [[".", "plain"], ["#", "no space"], ...features];
  AREA_KINDS = options.area_kinds;
  RESERVES = ["", ...options.reserves];
}

try {
  learnFormat(await json("/api/options"));
} catch (err) {
  say($("check"), `The table's floor format could not be read: ${err.message}`, "problem");
}
blank(floor.cols, floor.rows);
toolButtons();
$("grid").addEventListener("click", onGridClick);
$("cols").addEventListener("change", resize);
$("rows").addEventListener("change", resize);
$("title").addEventListener("input", scheduleCheck);
$("level").addEventListener("change", scheduleCheck);
$("name").addEventListener("change", scheduleCheck);
$("start").addEventListener("change", (e) => startFrom(e.target.value));
$("save").addEventListener("click", save);
$("zoom").addEventListener("change", draw);
draw();
loadList();
loadBackdrop().then(draw);
