// What a user types in a box bound to a stored value is theirs until it is saved. The item the
// box shows is read again often while it is open (a pull that touches it, the user's own
// previous change settling, a colleague's change to another field or to this one): a box filled
// again from the stored value at each re-read loses what was typed and not yet saved (before
// Tab, Enter or a blur, or the second box of a two-box editor), and then nothing, or the wrong
// value, is sent. A colleague's change to the same field while the user types keeps the user's
// typing too: saving it then goes through the outbox's check before a send, as any change does.
//
// Call it while a component is being set up (it runs an effect tied to that component).
import { untrack } from 'svelte';

export interface KeptTyping {
  /** The user typed in the box: from now on a re-read leaves it as it is. */
  typed(): void;
  /** Saved, refused or left: the box follows the stored value again from its next change. */
  settled(): void;
  /**
   * The box shows the stored value again now, and follows it: for a save that sent nothing or
   * was refused, whose typing would otherwise stay in the box (no re-read comes to replace it)
   * while the item holds another value.
   */
  refill(): void;
}

/**
 * Calls `fill` with the stored value when the box first shows, and when the value really changed
 * (not merely read again) while the user is not typing. A box shows one item: the component
 * holding it is made anew for another item (the task panel is keyed by its task, a view by its
 * project), so it starts over then.
 */
export function keptTyping<T>(stored: () => T, fill: (value: T) => void): KeptTyping {
  let seeded = false;
  let shown: T | undefined;
  let typing = false;
  const show = (value: T): void => {
    seeded = true;
    shown = value;
    fill(value);
  };
  $effect.pre(() => {
    const value = stored();
    untrack(() => {
      if (seeded && (typing || Object.is(value, shown))) return;
      show(value);
    });
  });
  return {
    typed: () => {
      typing = true;
    },
    settled: () => {
      typing = false;
    },
    refill: () => {
      typing = false;
      show(untrack(stored));
    },
  };
}

/**
 * A one-box form of `keptTyping`: `text` is what the box shows (bind it), `shown` formats the
 * stored value for it.
 */
export class KeptText<T> {
  text = $state('');
  readonly #kept: KeptTyping;
  constructor(stored: () => T, shown: (value: T) => string) {
    this.#kept = keptTyping(stored, (value) => (this.text = shown(value)));
  }
  /** For the box's `oninput`. */
  typed = (): void => this.#kept.typed();
  /** For the box's commit (its `onchange`, Enter) and its `onblur`. */
  settled = (): void => this.#kept.settled();
  /** For a save that sent nothing or was refused: the box shows the stored value again. */
  refill = (): void => this.#kept.refill();
}

/**
 * For a form filled from a stored record (a contact, an account) and open while the record is
 * read again: each field whose stored value changed since the form was filled (`filled`) and
 * that the user has not changed in the form takes the new stored value; a field the user
 * changed keeps what was typed. `form` is changed in place (a `$state` object).
 */
export function carryUntouched<F extends object>(form: F, filled: F, stored: F): void {
  for (const key of Object.keys(stored) as (keyof F)[]) {
    if (!Object.is(stored[key], filled[key]) && Object.is(form[key], filled[key])) form[key] = stored[key];
  }
}

/**
 * A form dialog filled from a stored record (a contact, an account; none for a new one) while it
 * is open: filled whole when it opens or is opened on another record (`opened` runs then), and
 * when the record is read again while open, only the fields the user left untouched take the new
 * values (`carryUntouched`). `form` is the form's `$state` object, `fill` replaces it.
 */
export function keptForm<F extends object>(options: {
  open: () => boolean;
  record: () => { key: string; fields: F };
  form: () => F;
  fill: (fields: F) => void;
  opened: () => void;
}): void {
  let filled: F | undefined;
  let filledFor: string | undefined;
  $effect(() => {
    if (!options.open()) {
      filledFor = undefined;
      return;
    }
    const { key, fields: stored } = options.record();
    untrack(() => {
      if (filledFor !== key || !filled) {
        options.opened();
        options.fill({ ...stored });
      } else carryUntouched(options.form(), filled, stored);
      filled = stored;
      filledFor = key;
    });
  });
}
