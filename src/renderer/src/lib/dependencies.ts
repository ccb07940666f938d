// Dependencies as a view reads them: the type's name, and which links wait for an item
// (its predecessors) and which wait on it (its successors).
import type { DependencyView } from '@shared/ipc/tasks';

export type DependencyKind = DependencyView['predecessor']['kind'];

export interface ItemRef {
  kind: DependencyKind;
  id: string;
  name: string;
}

export const DEPENDENCY_TYPE_NAMES: Readonly<Record<number, string>> = {
  5: 'Finish to Start',
  6: 'Start to Start',
  7: 'Finish to Finish',
};

export function dependencyTypeName(type: number): string {
  return DEPENDENCY_TYPE_NAMES[type] ?? `Type ${type}`;
}

export interface DependencySides {
  /** Links whose successor is the item: what it waits for. */
  predecessors: { dependency: DependencyView; other: DependencyView['predecessor'] }[];
  /** Links whose predecessor is the item: what waits for it. */
  successors: { dependency: DependencyView; other: DependencyView['successor'] }[];
}

export function splitDependencies(
  dependencies: readonly DependencyView[],
  item: Pick<ItemRef, 'kind' | 'id'>,
): DependencySides {
  const sides: DependencySides = { predecessors: [], successors: [] };
  for (const dependency of dependencies) {
    const { predecessor, successor } = dependency;
    if (successor.kind === item.kind && successor.id === item.id)
      sides.predecessors.push({ dependency, other: predecessor });
    else if (predecessor.kind === item.kind && predecessor.id === item.id)
      sides.successors.push({ dependency, other: successor });
  }
  return sides;
}

/** The dependencies of several items, each link once. */
export function uniqueDependencies(lists: readonly (readonly DependencyView[])[]): DependencyView[] {
  const seen = new Map<string, DependencyView>();
  for (const list of lists) for (const dep of list) seen.set(dep.id, dep);
  return [...seen.values()];
}

type ItemKey = Pick<ItemRef, 'kind' | 'id'>;

/**
 * The found items a search may offer: not the item itself, nor those already linked (a CRM
 * record's tasks), which picking again would do nothing with.
 */
export function withoutItems<T extends ItemKey>(
  found: readonly T[],
  exclude: ItemKey | readonly ItemKey[] | undefined,
): T[] {
  const left: readonly ItemKey[] = exclude === undefined ? [] : 'kind' in exclude ? [exclude] : exclude;
  return found.filter((item) => !left.some((other) => other.kind === item.kind && other.id === item.id));
}
