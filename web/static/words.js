// The game's words the pages show, as the rules say them: GET /api/options's `facings` (the compass letter a unit
// faces and its word), never a list of the pages' own. A page learns them once at its start (`loadWords`, or
// `learnWords` from options it fetched anyway); until they come, a letter stands for its word.
import { api } from "./dom.js";

const facings = new Map();

/** Keep the words of `options` (GET /api/options's body). */
export function learnWords(options) {
  for (const { letter, word } of options.facings) facings.set(letter, word);
}

/** Fetch the words once; true when they came (a page redraws what it named before). */
export async function loadWords() {
  const r = await api("GET", "/api/options");
  if (r.ok) learnWords(r.body);
  return r.ok;
}

/** "N" → "north": a facing's word. */
export const facingWord = (letter) => facings.get(letter) || letter;
