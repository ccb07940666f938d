// One key per bridge call, so an answer read before the call came can be matched to it (the
// reads ahead, the first-screen record). No schema here: the web host's own thread uses it.

/** The channel and its argument with its keys in order; undefined for an argument that is not an object. */
export function callKey(channel: unknown, arg: unknown): string | undefined {
  if (typeof channel !== 'string' || typeof arg !== 'object' || arg === null || Array.isArray(arg))
    return undefined;
  const entries = Object.entries(arg).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${channel} ${JSON.stringify(entries)}`;
}

/**
 * Calls that change one answer given before they came, by that answer's key: they drop it alone,
 * where any other call that is not a read drops every answer. The window keeps its place as it
 * moves, possibly before its other first reads are answered; only its kept place then changes.
 */
export const DROPS_ONE: ReadonlyMap<string, string> = new Map([
  ['app.rememberPlace', callKey('app.lastPlace', {})!],
]);
