// One key per bridge call, so an answer read before the call came can be matched to it (the
// reads ahead, the first-screen record). No schema here: the web host's own thread uses it.

/** The channel and its argument with its keys in order; undefined for an argument that is not an object. */
export function callKey(channel: unknown, arg: unknown): string | undefined {
  if (typeof channel !== 'string' || typeof arg !== 'object' || arg === null || Array.isArray(arg))
    return undefined;
  const entries = Object.entries(arg).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${channel} ${JSON.stringify(entries)}`;
}
