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
  const again = await refetch();
  const confirmed = candidates.filter((id) => !again.has(id));
  if (confirmed.length)
    log(`sync: ${scope}: removal of ${confirmed.length} items confirmed by a second fetch`);
  return confirmed;
}
