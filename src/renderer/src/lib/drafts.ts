// A message typed and not sent, with the files staged for it, kept per task while the app runs:
// moving to another task (the palette, the list's arrows, Back) unmounts the box, and what was
// typed or staged in it went with it.
import type { SpooledFile } from '@shared/ipc/attachments';

/** What a message box holds before Send. `files` are spool entries (the core's staged copies). */
export interface Draft<F> {
  text: string;
  files: readonly F[];
}

export class Drafts<F> {
  readonly #drafts = new Map<string, Draft<F>>();

  get(key: string): Draft<F> {
    return this.#drafts.get(key) ?? { text: '', files: [] };
  }

  /**
   * Keeps `draft` for `key`; a blank text with no files forgets it (sent, or erased). The staged
   * files are held, never unstaged, here: the box that removes one from a draft unstages it, and
   * a send takes them.
   */
  set(key: string, draft: Draft<F>): void {
    if (draft.text.trim() || draft.files.length)
      this.#drafts.set(key, { text: draft.text, files: [...draft.files] });
    else this.#drafts.delete(key);
  }

  /** Adds files staged for `key` after its box went away (staging is async), so none is orphaned. */
  addFiles(key: string, files: readonly F[]): void {
    if (!files.length) return;
    const draft = this.get(key);
    this.set(key, { text: draft.text, files: [...draft.files, ...files] });
  }
}

/** The message boxes' drafts, by task id. */
export const messageDrafts = new Drafts<SpooledFile>();
