import { RejectedError } from '../api/errors';
import type { UnreadableItem } from '../api/http';

/**
 * Rule 9: a pull that would remove most of a scope's cached items (a project subtree, the
 * project list) is suspicious: a glitch or a permission change can make a list come back empty.
 * Such a removal is applied only after the list is fetched again and still lacks the items.
 */
export const MASS_REMOVAL = { minItems: 20, fraction: 0.5 } as const;

export function isMassRemoval(cachedCount: number, removeCount: number): boolean {
  return removeCount >= MASS_REMOVAL.minItems && removeCount > cachedCount * MASS_REMOVAL.fraction;
}

/**
 * Decides which of `candidates` to remove from a scope holding `cachedCount` items. When the
 * removal is massive, `refetch` gets the scope's ids again; only items missing from both answers
 * are removed.
 */
export async function confirmRemoval(
  cachedCount: number,
  candidates: readonly string[],
  refetch: () => Promise<ReadonlySet<string>>,
  log: (message: string) => void,
  scope: string,
): Promise<string[]> {
  if (!isMassRemoval(cachedCount, candidates.length)) return [...candidates];
  log(`sync: ${scope} would lose ${candidates.length} of ${cachedCount} cached items; checking again`);
  let again: ReadonlySet<string>;
  try {
    again = await refetch();
  } catch (err) {
    // The scope itself went meanwhile (a project deleted between the two fetches): its items go.
    if (err instanceof RejectedError && err.status === 404) return [...candidates];
    throw err;
  }
  const confirmed = candidates.filter((id) => !again.has(id));
  if (confirmed.length)
    log(`sync: ${scope}: removal of ${confirmed.length} items confirmed by a second fetch`);
  return confirmed;
}

/**
 * Rule 9 for a list that replaces a whole scope (a subtree's documents, the event window):
 * answers the `keep` predicate to replace it with, which protects what `keep` protects plus
 * the cached items a mass removal would take and a second fetch did not confirm gone.
 */
export async function checkedKeep(
  cachedIds: readonly string[],
  incoming: readonly { id: string }[],
  keep: (id: string) => boolean,
  refetch: () => Promise<ReadonlySet<string>>,
  log: (message: string) => void,
  scope: string,
): Promise<(id: string) => boolean> {
  const listed = new Set(incoming.map((item) => item.id));
  const candidates = cachedIds.filter((id) => !listed.has(id) && !keep(id));
  const confirmed = new Set(await confirmRemoval(cachedIds.length, candidates, refetch, log, scope));
  const unconfirmed = new Set(candidates.filter((id) => !confirmed.has(id)));
  return (id) => keep(id) || unconfirmed.has(id);
}

/** The ids of a list answer, for a `refetch`. */
export const idSet = (list: readonly { id: string }[]): ReadonlySet<string> => new Set(list.map((x) => x.id));

/**
 * `keep` widened by the elements of a list answer that could not be read: the service holds
 * them, so a list item that cannot be read costs that item's update, never its cached row. One
 * without a readable id may be any item: then every cached item is kept.
 */
export function keepingUnreadable(
  keep: (id: string) => boolean,
  skipped: readonly UnreadableItem[],
): (id: string) => boolean {
  if (!skipped.length) return keep;
  if (skipped.some((s) => s.id === null)) return () => true;
  const unreadable = new Set(skipped.map((s) => s.id));
  return (id) => keep(id) || unreadable.has(id);
}
