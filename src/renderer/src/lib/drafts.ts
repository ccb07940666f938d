// Text typed into a message box and not sent yet, kept per task while the app runs: moving to
// another task (the palette, the list's arrows, Back) unmounts the box, and what was typed in it
// went with it.

export class Drafts {
  readonly #texts = new Map<string, string>();

  get(key: string): string {
    return this.#texts.get(key) ?? '';
  }

  /** Keeps `text` for `key`; an empty or blank text forgets it (sent, or erased). */
  set(key: string, text: string): void {
    if (text.trim()) this.#texts.set(key, text);
    else this.#texts.delete(key);
  }
}

/** The message boxes' drafts, by task id. */
export const messageDrafts = new Drafts();
