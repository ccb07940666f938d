// Go-to shortcuts: G, then a letter within a short time, opens a place (G then C: the calendar).
// The letters name commands of `state/commands.ts`, which holds what each place is.

/** The second key of a go-to sequence → the command it runs. */
export const GO_TO_KEYS: Readonly<Record<string, string>> = {
  i: 'go-action',
  m: 'go-assigned',
  c: 'go-calendar',
  t: 'go-mytime',
  u: 'go-updates',
};

/** How long after G the second key still counts (ms). */
export const GO_TO_TIMEOUT_MS = 1500;

/** The keys as the shortcuts help shows them: "G then C". */
export function goToKeysOf(commandId: string): string | undefined {
  const letter = Object.keys(GO_TO_KEYS).find((key) => GO_TO_KEYS[key] === commandId);
  return letter === undefined ? undefined : `G then ${letter.toUpperCase()}`;
}

/**
 * What a plain key press means to the go-to sequence: `start` (G pressed, the next key may
 * finish it), `go` with the command to run, or `none` (the key is not the sequence's: handle it
 * as usual). A second key that is not a go-to letter, or comes after the timeout, ends the
 * sequence and counts as an ordinary key.
 */
export type GoToStep = { kind: 'start' } | { kind: 'go'; commandId: string } | { kind: 'none' };

export interface GoToReader {
  /** `key` as `KeyboardEvent.key`; `at` in milliseconds (the event's time stamp). */
  press(key: string, at: number): GoToStep;
  /** Forgets a started sequence (typing in a field, a modifier key, a dialog). */
  reset(): void;
}

export function createGoToReader(timeoutMs: number = GO_TO_TIMEOUT_MS): GoToReader {
  let startedAt: number | null = null;
  return {
    press(key, at) {
      const lower = key.toLowerCase();
      const started = startedAt;
      startedAt = null;
      if (started !== null && at - started <= timeoutMs) {
        const commandId = GO_TO_KEYS[lower];
        if (commandId !== undefined) return { kind: 'go', commandId };
      }
      if (lower === 'g') {
        startedAt = at;
        return { kind: 'start' };
      }
      return { kind: 'none' };
    },
    reset() {
      startedAt = null;
    },
  };
}
