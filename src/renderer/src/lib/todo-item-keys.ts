// To-do items have no ids (GoodDay's items are `{properties: {completed, title, userId}}`), so the
// to-do section gives each item a key of its own and carries it from one read of the lists to
// the next: the box being typed in then stays with its item when a colleague's change, pulled
// meanwhile, inserts, removes, ticks or renames items around it.

/** One list's items as last shown: a key per item, and the item's stored title. */
export interface KeyedItems {
  keys: readonly string[];
  titles: readonly string[];
}

/** Longest common subsequence of two title lists, as pairs of indexes, in order. */
function commonTitles(before: readonly string[], after: readonly string[]): [number, number][] {
  const n = before.length;
  const m = after.length;
  // lengths[i * (m + 1) + j]: the longest common run of before[i..] and after[j..].
  const lengths = new Uint16Array((n + 1) * (m + 1));
  const at = (i: number, j: number): number => lengths[i * (m + 1) + j]!;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * (m + 1) + j] =
        before[i] === after[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (before[i] === after[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) i++;
    else j++;
  }
  return pairs;
}

/**
 * The keys of the items whose stored titles are `titles` now, given those last shown:
 * - items whose titles keep their order keep their keys (the longest common run of titles), so
 *   an item inserted or removed elsewhere moves the others without changing them;
 * - between two such items, the items left over on each side pair by order, so an item renamed
 *   in place (by a colleague, or by the user's own save) keeps its key;
 * - an item left over whose title is that of an old item left over takes its key (an item
 *   moved up or down);
 * - any other item gets a new key from `newKey`.
 * What the data cannot tell: an item renamed by a colleague with another inserted or removed
 * next to it in the same read pairs by order, possibly with its neighbour.
 */
export function followItemKeys(
  previous: KeyedItems,
  titles: readonly string[],
  newKey: () => string,
): string[] {
  if (titles.length === previous.titles.length && titles.every((t, i) => t === previous.titles[i]))
    return [...previous.keys];
  const keys: (string | undefined)[] = [];
  const left: number[] = [];
  let before = 0;
  const anchors = [...commonTitles(previous.titles, titles), [previous.titles.length, titles.length]];
  for (const [oldAt, newAt] of anchors) {
    // The gap up to this anchor: old items before..oldAt, new items keys.length..newAt.
    while (keys.length < newAt) keys.push(before < oldAt ? previous.keys[before++] : undefined);
    while (before < oldAt) left.push(before++);
    if (newAt < titles.length) keys.push(previous.keys[oldAt]!);
    before = oldAt + 1;
  }
  return keys.map((key, at) => {
    if (key !== undefined) return key;
    const moved = left.findIndex((oldAt) => previous.titles[oldAt] === titles[at]);
    return moved < 0 ? newKey() : previous.keys[left.splice(moved, 1)[0]!]!;
  });
}
