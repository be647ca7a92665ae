// The board as SVG, drawn the same way on the live page and in the replay: the floor from GET /api/floor (what
// the engine plays on), the units from the game state, and what the camera sees that the game does not
// (misplaced chips, from the table view). Column letters run along the top edge and row numbers down the left,
// as the floor format names spaces (A1 is the top left). Every element names its space or unit in data-
// attributes, so a test reads the board the way a person looks at it. Sizes are in board units (a space is 10):
// text is at least 4.8 units, 12.5 CSS px at the phone's default of 26 px a space (web/static/board.js).
import { s } from "./dom.js";
import { facingWord } from "./words.js";

export const CELL = 10;
export const MARGIN = { left: 8, top: 7 };  // room for the row numbers and column letters
const ROTATION = { N: 0, E: 90, S: 180, W: 270 };
const GUARD_COLOURS = { yellow: "#f3d250", blue: "#5fb0ff", red: "#ff6b6b", pink: "#ff8fd0", green: "#6fdc8c",
                        purple: "#b088ff", orange: "#ffa24d", white: "#e8ecf0", black: "#8a96a3" };
const BOT_COLOURS = ["#7fe0c8", "#ffd27f", "#c9a6ff", "#9fd0ff", "#ffb0a0"];
const FEATURE_MARKS = { terminal: "T", mainframe: "M" };

/** "A", "B", … "Z", "AA": a column's letter as the floor format names it. */
const columnName = (c) => (c >= 26 ? columnName(Math.floor(c / 26) - 1) : "") + String.fromCharCode(65 + (c % 26));

const centre = (space) => [space.column * CELL + CELL / 2, space.row * CELL + CELL / 2];
export const initials = (bot) => (bot.kind === "module" ? "CM" : bot.name.slice(0, 2));

function edgeLine(edge, cls) {
  const x = edge.column * CELL, y = edge.row * CELL;
  const ends = { N: [x, y, x + CELL, y], S: [x, y + CELL, x + CELL, y + CELL],
                 W: [x, y, x, y + CELL], E: [x + CELL, y, x + CELL, y + CELL] }[edge.side];
  const [x1, y1, x2, y2] = ends;
  return s("line", { x1, y1, x2, y2, class: cls, "data-edge": edge.id }, s("title", {}, edge.id));
}

const NAME_SIZE = 4.8;  // board units: .area-name's font-size in board.css
const NAME_TOP = 1;  // below a space's top edge: the glyphs' box (hanging baseline) starts within the space
const NAME_LINE = 5.2;  // between a wrapped name's two lines
const NAME_PAD = 0.8;  // from a space's left and right edges
const BEAD_ROOM = 3.4;  // from the left edge of the space that holds the surveillance bead
let ruler = null;

/** A room name's width in board units, measured in the board's own font (a little more, for the renderer). */
function nameWidth(text, family) {
  ruler = ruler || document.createElement("canvas").getContext("2d");
  ruler.font = `${NAME_SIZE * 10}px ${family}`;
  return (ruler.measureText(text).width / 10) * 1.06;
}

/** The runs of an area's spaces along each row (top first), each with the room a name has across it. */
function rowRuns(area, spaceOf) {
  const rows = new Map();
  for (const id of area.spaces) {
    const sp = spaceOf.get(id);
    rows.set(sp.row, [...(rows.get(sp.row) || []), sp.column]);
  }
  const runs = [];
  for (const row of [...rows.keys()].sort((a, b) => a - b)) {
    const columns = rows.get(row).sort((a, b) => a - b);
    let from = columns[0];
    columns.forEach((c, k) => {
      if (columns[k + 1] !== c + 1) { runs.push({ row, from, to: c }); from = columns[k + 1]; }
    });
  }
  const first = spaceOf.get(area.spaces[0]);
  for (const run of runs) {
    run.left = run.from * CELL + (area.surveilled && run.row === first.row && run.from === first.column ? BEAD_ROOM : NAME_PAD);
    run.room = (run.to + 1) * CELL - NAME_PAD - run.left;
    run.below = (rows.get(run.row + 1) || []).filter((c) => c >= run.from && c <= run.to).length === run.to - run.from + 1;
  }
  return runs;
}

/** A name in two lines of about equal width, at a space between words (null: one word). */
function wrapped(name, family) {
  const words = name.split(" ");
  let best = null;
  for (let k = 1; k < words.length; k++) {
    const lines = [words.slice(0, k).join(" "), words.slice(k).join(" ")];
    const widest = Math.max(...lines.map((l) => nameWidth(l, family)));
    if (!best || widest < best.widest) best = { lines, widest };
  }
  return best;
}

/** An area's name inside the area, never across its edge (nor the board's): on the first row whose run of spaces
 *  holds it whole, else in two lines where the row below is the area's too, else on the widest run, shortened with
 *  "…" (pinNames shortens it; the whole name is the text's title). */
function areaName(area, index, spaceOf, family) {
  const runs = rowRuns(area, spaceOf);
  const whole = nameWidth(area.name, family);
  const two = wrapped(area.name, family);
  const line = runs.find((r) => whole <= r.room);
  const tall = !line && two && runs.find((r) => r.below && two.widest <= r.room);
  const run = line || tall || runs.reduce((a, b) => (b.room > a.room ? b : a));
  const lines = tall ? two.lines : [area.name];
  // where the name may slide as the board pans (pinNames): along its run, from its left to its right
  return s("text", { x: run.left, y: run.row * CELL + NAME_TOP, class: "area-name", "data-area": index,
                     "data-left": run.left, "data-right": run.left + run.room,
                     "data-width": Math.min(tall ? two.widest : whole, run.room) },
           s("title", {}, area.name),
           ...lines.map((text, k) => s("tspan", { x: run.left, y: run.row * CELL + NAME_TOP + k * NAME_LINE,
                                                  "data-full": text }, text)));
}

/** Room names stay whole in view as the board pans: a name whose room runs under the frame's left edge (`left`,
 *  board units, where the row numbers' strip ends) slides right within its row of the room, never past the room's
 *  edge, and is shortened with "…" to what is left of its row in view up to the frame's right edge (`right`), or of
 *  its room, for a name too long for it: so the frame never cuts it. */
export function pinNames(svg, left = -Infinity, right = Infinity) {
  for (const name of svg.querySelectorAll("text.area-name")) {
    const end = Number(name.dataset.right), least = Math.min(NAME_SIZE * 2.2, Number(name.dataset.width));
    const x = Math.max(Number(name.dataset.left), Math.min(end - least, left + NAME_PAD));
    const room = Math.max(least, Math.min(end, right - NAME_PAD) - x);
    const pinned = `${x} ${room}`;
    if (name.dataset.pinned === pinned) continue;
    name.dataset.pinned = pinned;
    name.setAttribute("x", x);
    for (const line of name.querySelectorAll("tspan")) {
      line.setAttribute("x", x);
      line.textContent = shortened(line.dataset.full, room, fontOf(svg));
    }
  }
}

/** `text` as it fits `room` board units: whole, or cut at the end with "…". */
function shortened(text, room, family) {
  if (nameWidth(text, family) <= room) return text;
  let short = text;
  while (short.length > 1 && nameWidth(`${short}…`, family) > room) short = short.slice(0, -1);
  return `${short.trimEnd()}…`;
}

const fonts = new WeakMap();
/** The board's font family, as its names are measured in (looked up once per board). */
function fontOf(svg) {
  if (!fonts.has(svg)) fonts.set(svg, getComputedStyle(svg).fontFamily);
  return fonts.get(svg);
}

function drawFloor(floor, family) {
  const areas = s("g", { class: "areas" });
  const marks = s("g", { class: "features" });
  const spaceOf = new Map(floor.spaces.map((sp) => [sp.id, sp]));
  for (const sp of floor.spaces) {
    const area = floor.areas[sp.area];
    areas.append(s("rect", { x: sp.column * CELL, y: sp.row * CELL, width: CELL, height: CELL,
                             class: `space area-${area.kind}`, "data-space": sp.id,
                             "data-col": sp.column, "data-row": sp.row, "data-area": sp.area },
                   s("title", {}, `${sp.id}: ${area.name}`)));
  }
  const grid = s("g", { class: "grid-lines" }, floor.spaces.map((sp) =>
    s("rect", { x: sp.column * CELL, y: sp.row * CELL, width: CELL, height: CELL, class: "grid" })));
  for (const [k, area] of floor.areas.entries()) {
    const first = spaceOf.get(area.spaces[0]);
    if (area.kind !== "hallway") marks.append(areaName(area, k, spaceOf, family));
    if (area.surveilled) {
      marks.append(s("circle", { cx: first.column * CELL + 1.6, cy: first.row * CELL + 1.8, r: 1.1,
                                 class: "bead" }, s("title", {}, `${area.name}: surveillance bead`)));
    }
  }
  for (const t of floor.terminals) {
    const [cx, cy] = centre(spaceOf.get(t.space));
    marks.append(s("text", { x: cx, y: cy, class: `feature terminal${t.accessed ? " accessed" : ""}`,
                             "data-terminal": t.space }, FEATURE_MARKS[t.kind] || "T",
                   s("title", {}, `${t.kind} terminal ${t.space}${t.accessed ? " (accessed)" : ""}`)));
  }
  for (const c of floor.caches) {
    const [cx, cy] = centre(spaceOf.get(c.space));
    marks.append(s("path", { d: `M${cx} ${cy - 3}l3 3l-3 3l-3 -3z`, class: `cache${c.taken ? " taken" : ""}`,
                             "data-cache": c.space }, s("title", {}, `cache ${c.space}${c.taken ? " (taken)" : ""}`)));
  }
  for (const id of floor.hiding_spots) {
    const [cx, cy] = centre(spaceOf.get(id));
    marks.append(s("circle", { cx, cy, r: 4, class: "hiding", "data-hiding": id }, s("title", {}, `hiding spot ${id}`)));
  }
  for (const p of floor.posts) {
    const sp = spaceOf.get(p.space);
    const label = { post1: "1", post2: "2", post3: "3", star: "*", postA: "A", postB: "B", captain: "K", module: "m",
                    ghost: "G" }[p.post];
    marks.append(s("text", { x: sp.column * CELL + 2.2, y: sp.row * CELL + CELL - 2.6, class: "feature post",
                             "data-post": p.space }, label, s("title", {}, `${p.text} (${p.space})`)));
  }
  for (const id of floor.entrances) {
    const sp = spaceOf.get(id);
    marks.append(s("text", { x: sp.column * CELL + CELL - 2.2, y: sp.row * CELL + CELL - 2.6, class: "feature entrance",
                             "data-entrance": id }, "E", s("title", {}, `entrance ${id}`)));
  }
  const walls = s("g", { class: "walls" }, floor.walls.map((w) =>
    edgeLine(w, `wall${w.outer ? " outer" : ""}${w.destroyed ? " destroyed" : ""}`)));
  const doors = s("g", { class: "doors" }, floor.doors.map((d) =>
    edgeLine(d, `door ${d.locked ? "locked" : "unlocked"}`)));
  return [areas, grid, marks, walls, doors];
}

/** The column letters along the top edge and the row numbers down the left, as spaces are named, each on a strip
 * of its own that a zoomed board keeps at the frame's edge (web/static/board.js). */
function coordinates(floor) {
  const width = floor.columns * CELL, height = floor.rows * CELL;
  const columns = s("g", { class: "columns" }, s("rect", { x: -MARGIN.left, y: -MARGIN.top, width: width + MARGIN.left + 1,
                                                           height: MARGIN.top, class: "coordinate-strip" }));
  for (let c = 0; c < floor.columns; c++) {
    columns.append(s("text", { x: c * CELL + CELL / 2, y: -MARGIN.top / 2, class: "coordinate", "data-column": columnName(c) },
                     columnName(c)));
  }
  const rows = s("g", { class: "rows" }, s("rect", { x: -MARGIN.left, y: -MARGIN.top, width: MARGIN.left,
                                                     height: height + MARGIN.top + 1, class: "coordinate-strip" }));
  for (let r = 0; r < floor.rows; r++) {
    rows.append(s("text", { x: -MARGIN.left / 2, y: r * CELL + CELL / 2, class: "coordinate", "data-row": r + 1 },
                  String(r + 1)));
  }
  return s("g", { class: "coordinates", "aria-hidden": "true" }, rows, columns);
}

/** A whole space, transparent: what a finger hits on a unit (larger than the chip drawn). */
const hitArea = (space) => s("rect", { x: space.column * CELL, y: space.row * CELL, width: CELL, height: CELL,
                                       class: "hit" });

function guardShape(unit, space) {
  const [cx, cy] = centre(space);
  const colour = unit.rank === "captain" ? "#ff8fd0" : (GUARD_COLOURS[unit.colour] || "#e8ecf0");
  return s("g", { class: `unit security${unit.stunned ? " stunned" : ""}`, "data-unit": unit.id,
                  "data-space": unit.space, "data-facing": unit.facing },
           hitArea(space),
           s("circle", { cx, cy, r: 3.6, fill: colour, stroke: "#0d1115", "stroke-width": 0.4,
                         opacity: unit.stunned ? 0.5 : 1 }),
           s("path", { d: `M${cx - 1.8} ${cy - 3.5}L${cx} ${cy - 5.6}L${cx + 1.8} ${cy - 3.5}z`, fill: colour,
                       transform: `rotate(${ROTATION[unit.facing] || 0} ${cx} ${cy})`, class: "facing" }),
           s("text", { x: cx, y: cy }, unit.rank === "captain" ? "K" : unit.id),
           s("title", {}, `${unit.id} ${unit.chip} (${unit.rank}, level ${unit.level}) on ${unit.space}, facing `
                          + `${facingWord(unit.facing)}`
                          + `${unit.stunned ? ", stunned" : ""}`));
}

function botShape(bot, space, colour, offset) {
  const [cx, cy] = centre(space);
  const detected = bot.awareness !== null && bot.awareness === bot.space;
  const x = cx - 3.6 + offset, y = cy - 3.6 + offset;
  return s("g", { class: `unit bot${bot.hidden ? " hidden" : ""}${detected ? " detected" : ""}`,
                  "data-unit": bot.id, "data-space": bot.space, "data-hidden": String(bot.hidden), "data-detected": String(detected) },
           hitArea(space),
           s("rect", { x, y, width: 7.2, height: 7.2, rx: 1.6, fill: colour, stroke: "#0d1115", "stroke-width": 0.4 }),
           s("text", { x: x + 3.6, y: y + 3.6 }, initials(bot)),
           s("title", {}, `${bot.name} on ${bot.space}${bot.hidden ? ", hidden" : ""}${detected ? ", detected" : ""}`));
}

/** What a floor looks like without what changes with every move (the guards' sight, and with it the floor's
 *  version, the change number it was sent at): the same key, the same floor layers. Computed once per floor. */
const keys = new WeakMap();
export function floorKey(floor) {
  let key = keys.get(floor);
  if (key === undefined) {
    key = JSON.stringify({ ...floor, sight: null, number: null, version: null });
    keys.set(floor, key);
  }
  return key;
}

/** Per board drawn: its floor's layers and coordinates as last built, and the groups drawn over them. A move
 *  redraws only what moves (the units, the sight, the camera's marks); the floor's hundreds of elements are built
 *  again only when the floor itself changed (a door unlocked, a wall destroyed, another floor), which keeps a
 *  change from the live feed within a frame or two on a slow phone. */
const drawn = new WeakMap();

/** Draw everything: the floor, what the guards see, the chips and units, the camera's disagreements, the
 * corporation's moves still to make, and the coordinates on top. */
export function drawBoard(svg, floor, state, table) {
  const spaceOf = new Map(floor.spaces.map((sp) => [sp.id, sp]));
  const key = floorKey(floor);
  let kept = drawn.get(svg);
  const fresh = !kept || kept.key !== key || kept.edges.parentNode !== svg;
  if (fresh) {
    svg.setAttribute("viewBox", `${-MARGIN.left} ${-MARGIN.top} ${floor.columns * CELL + MARGIN.left + 1} `
                                + `${floor.rows * CELL + MARGIN.top + 1}`);
    const defs = s("defs", {}, s("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 4,
                                             markerHeight: 4, orient: "auto-start-reverse" },
                                 s("path", { d: "M0 0L10 5L0 10z", class: "arrow-head" })));
    kept = { key, layers: [defs, ...drawFloor(floor, fontOf(svg))], edges: coordinates(floor), over: [] };
    drawn.set(svg, kept);
  }
  const sight = s("g", { class: "sights" });
  const seenBy = new Map();
  for (const [unit, spaces] of Object.entries(floor.sight || {})) {
    for (const id of spaces) seenBy.set(id, [...(seenBy.get(id) || []), unit]);
  }
  for (const [id, units] of seenBy) {
    const sp = spaceOf.get(id);
    if (sp) sight.append(s("rect", { x: sp.column * CELL, y: sp.row * CELL, width: CELL, height: CELL, class: "sight",
                                     "data-seen": id }, s("title", {}, `${id}: seen by ${units.join(", ")}`)));
  }
  const chips = s("g", { class: "chips" });
  const units = s("g", { class: "units" });
  if (state) {
    state.bots.forEach((bot, n) => {
      if (bot.awareness && spaceOf.has(bot.awareness) && bot.awareness !== bot.space) {
        const [cx, cy] = centre(spaceOf.get(bot.awareness));
        chips.append(s("g", { class: "chip-awareness", "data-awareness": bot.id, "data-space": bot.awareness },
                       s("circle", { cx: cx + 2.4, cy: cy + 2.4, r: 2.6 }), s("text", { x: cx + 2.4, y: cy + 2.4 }, initials(bot)),
                       s("title", {}, `${bot.name}'s awareness chip on ${bot.awareness}`)));
      }
      if (bot.space && !bot.escaped && spaceOf.has(bot.space)) {
        units.append(botShape(bot, spaceOf.get(bot.space), BOT_COLOURS[n % BOT_COLOURS.length], 0));
      }
    });
    for (const unit of state.security) {
      if (spaceOf.has(unit.space)) units.append(guardShape(unit, spaceOf.get(unit.space)));
    }
  }
  const wrong = s("g", { class: "misplaced-chips" });
  for (const m of (table && table.misplaced) || []) {
    // seen elsewhere: circled where the camera sees it, with a line from where the game has it; not seen at all:
    // circled where the game has it, so the players look there
    const seen = m.seen && m.seen.space && spaceOf.get(m.seen.space);
    const expected = m.expected && m.expected.space && spaceOf.get(m.expected.space);
    const at = seen || expected;
    if (!at) continue;
    const [cx, cy] = centre(at);
    const mark = s("g", { class: `misplaced${seen ? "" : " unseen"}`, "data-misplaced": m.unit || m.chip,
                          "data-space": seen ? m.seen.space : m.expected.space },
                   s("circle", { cx, cy, r: 4.6 }), s("text", { x: cx + 3.4, y: cy - 3.4 }, "?"), s("title", {}, m.text));
    if (seen && expected) {
      const [ex, ey] = centre(expected);
      mark.append(s("line", { x1: ex, y1: ey, x2: cx, y2: cy }));
    }
    wrong.append(mark);
  }
  // the corporation's moves still to be made on the table: an arrow from where the chip stands to where it goes
  const todo = s("g", { class: "todos" });
  for (const i of (table && table.instructions) || []) {
    const from = i.from && spaceOf.get(i.from), to = i.space && spaceOf.get(i.space);
    if (i.done || !from || !to || from === to) continue;
    const [x1, y1] = centre(from), [x2, y2] = centre(to);
    todo.append(s("g", { class: "todo", "data-todo": i.unit },
                  s("line", { x1, y1, x2, y2, "marker-end": "url(#arrow)" }), s("title", {}, i.text)));
  }
  const over = [sight, chips, todo, units, wrong];
  if (fresh) {
    svg.replaceChildren(...kept.layers, ...over, kept.edges);
    pinNames(svg);  // each name as its room holds it (the live board pins them again as it pans)
  } else {
    for (const old of kept.over) old.remove();
    for (const group of over) svg.insertBefore(group, kept.edges);
  }
  kept.over = over;
}
