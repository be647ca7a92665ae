// The live feed: one WebSocket to /ws (docs/http-api.md). The server sends a snapshot on connect and then every
// change; when the socket closes the page says so and reconnects by itself, waiting longer after each failure
// (with some jitter, so phones do not all knock at once when the table comes back), and the new snapshot is the
// catch-up: nothing is reloaded.
const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 8000;

export class LiveFeed {
  /** onMessage(message) for each message; onLine(true|false) when the table answers or stops answering. */
  constructor(onMessage, onLine) {
    this.onMessage = onMessage;
    this.onLine = onLine;
    this.wait = FIRST_WAIT_MS;
    this.socket = null;
    this.timer = null;
    window.addEventListener("offline", () => this.socket && this.socket.close());
    window.addEventListener("online", () => this.reconnectSoon(0));
  }

  start() { this.connect(); }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    let socket;
    try {
      socket = new WebSocket(url);
    } catch (err) {
      this.lost();
      return;
    }
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (err) { return; }
      if (message.type === "snapshot") {
        this.wait = FIRST_WAIT_MS;
        this.onLine(true);
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", () => { if (this.socket === socket) this.lost(); });
  }

  lost() {
    this.socket = null;
    this.onLine(false);
    this.reconnectSoon(this.wait * (0.75 + Math.random() * 0.5));
    this.wait = Math.min(this.wait * 2, LONGEST_WAIT_MS);
  }

  reconnectSoon(ms) {
    if (this.socket !== null) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), ms);
  }
}
