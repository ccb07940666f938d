// The error of a list's last read, by `failedListRead`: in the list's place when there is
// nothing to keep, or above the rows it keeps. One per list state, so each view says the same.
import { failedListRead, failedReadNote } from './errors';

export class ListReadError {
  #message = $state<string | undefined>();
  #kept = $state(false);

  /**
   * A read failed; `answered` says whether the list holds an earlier answer it could keep. Once
   * an error has taken the list's place, the rows held are dropped from view until a read
   * answers: a later failure does not bring them back, whatever `answered` says. Rows kept
   * because the connection to the core was lost get no note (see `failedReadNote`).
   */
  failed(error: unknown, answered: boolean, idField?: string): void {
    const dropped = this.#message !== undefined && !this.#kept;
    this.#kept = failedListRead(error, answered && !dropped, idField) === 'kept';
    this.#message = failedReadNote(error, this.#kept);
    if (this.#message === undefined) this.#kept = false;
  }

  /** A read answered: no error any more. */
  cleared(): void {
    this.#message = undefined;
    this.#kept = false;
  }

  /** The error shown instead of the list (nothing to keep), with Try again. */
  get shown(): string | undefined {
    return this.#kept ? undefined : this.#message;
  }

  /** The error shown above the rows kept from the last answer. */
  get kept(): string | undefined {
    return this.#kept ? this.#message : undefined;
  }
}
