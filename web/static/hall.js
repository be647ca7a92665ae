// Every table on the broker, pushed by the hall over its WebSocket (/ws): the whole hall on connect, then again
// each time a table's retained topics change; nothing is asked on a timer. Everything shown comes from the
// network (MQTT payloads), so it only ever goes in as text: the dashboard's own h() (web/static/dom.js) builds
// every element. No assets from outside.
import { $, h } from "/static/dom.js";
import { LiveFeed } from "/static/live.js";

function row(label, value) {
  return [h("dt", {}, label), h("dd", {}, value === null || value === undefined || value === "" ? "–" : value)];
}

function card(t) {
  const state = t.online ? "online" : (t.availability === "offline" ? "offline" : "unknown");
  return h("article", { class: `table ${state}`, "data-table": t.id },
    h("h2", {}, h("span", { class: "name" }, t.id),
      h("span", { class: "status" }, state === "unknown" ? "availability unknown" : state)),
    h("div", { class: "mission" }, t.mission || "no mission published"),
    h("dl", {}, row("threat", t.threat), row("phase", t.phase), row("round", t.round),
      t.player ? row("playing", t.player) : null, t.result ? row("result", t.result) : null));
}

function banner(text) {
  $("banner").hidden = !text;
  $("banner").textContent = text;
}

function show(hall) {
  $("broker").textContent = hall.message;
  banner(hall.connected ? "" : "The hall cannot reach the broker: " + hall.message);
  const online = hall.tables.filter((t) => t.online).length;
  $("count").textContent = `${hall.tables.length} tables, ${online} online`;
  $("tables").replaceChildren(...(hall.tables.length ? hall.tables.map(card)
    : [h("p", { class: "none" }, "No table has published on this broker yet.")]));
}

new LiveFeed((message) => show(message.hall), (up) => { if (!up) banner("The hall is not answering: retrying…"); })
  .start();
