// The table's PIN, asked the same way on every page: the dashboard shows the form in its Play panel, the tool
// pages in a dialog when a change needs it. A wrong PIN says how many tries are left; after too many the table
// refuses for a while (429 with `retry_after`, web/auth.py): the form counts the wait down and keeps Unlock
// disabled until it ends, so nobody types into a form that cannot work.
import { api, h } from "./dom.js";

/**
 * A PIN form: its input, its Unlock button and a line for what the table answered. `onUnlocked()` runs once
 * the table took the PIN (the session cookie is set). `ids` names the form and the input (the dashboard's are
 * `pin-form` and `pin-input`).
 */
export function pinForm({ onUnlocked, ids = {}, label = "The table's PIN (printed where the table service started)",
                          extra = [] }) {
  const inputId = ids.input || "pin-input-dialog";
  const input = h("input", { id: inputId, name: "pin", type: "password", inputmode: "numeric", maxlength: 12,
                             autocomplete: "off", required: true });
  const unlock = h("button", { type: "submit", class: "primary" }, "Unlock");
  const problem = h("p", { class: "problem pin-problem", role: "status", "aria-live": "polite" });
  let timer = null;

  const wait = (seconds) => {
    clearInterval(timer);
    let left = Math.max(1, Math.ceil(seconds));
    const show = () => {
      problem.textContent = `Too many wrong PINs from this device: Unlock works again in ${left} s.`;
      unlock.disabled = true;
      unlock.setAttribute("data-wait", String(left));
    };
    show();
    timer = setInterval(() => {
      left -= 1;
      if (left > 0) { show(); return; }
      clearInterval(timer);
      unlock.disabled = false;
      unlock.removeAttribute("data-wait");
      problem.textContent = "You may try the PIN again.";
      input.focus();
    }, 1000);
  };

  const form = h("form", { id: ids.form, class: "pin-form", autocomplete: "off" },
    h("label", { for: inputId }, label), h("div", { class: "row" }, input, unlock), problem, ...extra);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (unlock.disabled) return;
    unlock.disabled = true;
    const r = await api("POST", "/api/session", { pin: input.value });
    input.value = "";
    unlock.disabled = false;
    if (r.ok) {
      problem.textContent = "";
      onUnlocked();
      return;
    }
    if (r.status === 429 && r.body.retry_after) { wait(r.body.retry_after); return; }
    problem.textContent = sentence(r.body.message);
    input.focus();
  });
  return form;
}

/** A message of the table as a sentence: its first letter up, a full stop at its end. */
export const sentence = (text) => {
  const t = String(text || "").trim();
  return t ? `${t[0].toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? "" : "."}` : "";
};

/** The PIN asked in a dialog, for a change that needs it; resolves once unlocked, rejects when cancelled. */
export function askPin(why) {
  return new Promise((resolve, reject) => {
    const dialog = h("dialog", { class: "pin-dialog", "aria-labelledby": "pin-dialog-title" });
    const cancel = h("button", { type: "button" }, "Cancel");
    const form = pinForm({ onUnlocked: () => { dialog.close(); dialog.remove(); resolve(); },
                           label: "It is printed where the table service started",
                           extra: [h("div", { class: "row" }, cancel)] });
    dialog.append(h("h2", { id: "pin-dialog-title" }, "The table's PIN"),
                  h("p", { class: "note" }, why || "This needs the table's PIN."), form);
    cancel.addEventListener("click", () => { dialog.close(); });
    dialog.addEventListener("close", () => {
      if (!dialog.isConnected) return;
      dialog.remove();
      reject(Object.assign(new Error("no PIN given: nothing was changed"), { status: 401 }));
    });
    document.body.append(dialog);
    dialog.showModal();
    form.querySelector("input").focus();
  });
}
