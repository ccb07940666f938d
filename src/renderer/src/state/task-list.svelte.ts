// One task list on screen (a project, My Work, a tag): its sort, filter, grouping, selection,
// and the windowed rows, re-read whenever the cache says tasks changed.
import { untrack } from 'svelte';
import { z } from 'zod';
import { TaskSortKey, type TaskRow, type TaskFilter } from '@shared/ipc/tasks';
import type { Bridge } from '../lib/bridge';
import { onCacheBurst } from '../lib/cache-events';
import { loadPref, savePref } from '../lib/storage';
import { TaskWindow } from './task-window.svelte';
import type { Status } from './org.svelte';

export type SortKey = z.infer<typeof TaskSortKey>;
export interface SortSpec {
  by: SortKey;
  dir: 'asc' | 'desc';
}
export type ListFilter = Omit<Partial<TaskFilter>, 'closed'>;

export type ListQuery = (args: {
  offset: number;
  limit: number;
  filter: TaskFilter;
  sort: SortSpec;
  subprojects: boolean;
}) => Promise<{ rows: TaskRow[]; total: number }>;

/** One line of the list: a group header or a task row (by group and index within it). */
export type ListItem = { kind: 'group'; group: number } | { kind: 'row'; group: number; index: number };

interface Group {
  status: Status | undefined;
  window: TaskWindow;
}

const Prefs = z.object({
  sort: z.object({
    by: TaskSortKey,
    dir: z.enum(['asc', 'desc']),
  }),
  showClosed: z.boolean(),
  subprojects: z.boolean(),
  groupByStatus: z.boolean(),
});
type Prefs = z.infer<typeof Prefs>;

export class TaskListState {
  #sort = $state<SortSpec>({ by: 'momentCreated', dir: 'desc' });
  #filter = $state<ListFilter>({});
  #showClosed = $state(false);
  #subprojects = $state(false);
  #groupByStatus = $state(false);
  #groups = $state.raw<Group[]>([]);
  #collapsed = $state<Record<string, boolean>>({});
  #selected = $state<Record<string, true>>({});
  #anchor: number | undefined;
  #active = $state(0);
  readonly #query: ListQuery;
  readonly #statuses: () => readonly Status[];
  readonly #prefsKey: string;
  readonly #bridge: Bridge;

  constructor(options: {
    bridge: Bridge;
    query: ListQuery;
    statuses: () => readonly Status[];
    /** Where this list's sort and toggles are remembered. */
    prefsKey: string;
    /** The Subfolders switch before the user ever set it (on for a folder's list). */
    subprojects?: boolean;
  }) {
    this.#bridge = options.bridge;
    this.#query = options.query;
    this.#statuses = options.statuses;
    this.#prefsKey = options.prefsKey;
    this.#subprojects = options.subprojects ?? false;
    const prefs = loadPref<Prefs | null>(`list.${options.prefsKey}`, Prefs.nullable(), null);
    if (prefs) {
      this.#sort = prefs.sort;
      this.#showClosed = prefs.showClosed;
      this.#subprojects = prefs.subprojects;
      this.#groupByStatus = prefs.groupByStatus;
    }
    this.#rebuild();
  }

  /**
   * Follows cache changes; returns the unsubscribe. A burst of changes (a sync writes many)
   * becomes one refresh.
   */
  start(): () => void {
    return onCacheBurst(this.#bridge, ['tasks', 'statuses'], 60, () => this.refresh());
  }

  get sort(): SortSpec {
    return this.#sort;
  }
  get filter(): ListFilter {
    return this.#filter;
  }
  get showClosed(): boolean {
    return this.#showClosed;
  }
  get subprojects(): boolean {
    return this.#subprojects;
  }
  get groupByStatus(): boolean {
    return this.#groupByStatus;
  }
  get groups(): readonly Group[] {
    return this.#groups;
  }

  setSort(by: SortKey): void {
    this.#sort =
      this.#sort.by === by
        ? { by, dir: this.#sort.dir === 'asc' ? 'desc' : 'asc' }
        : {
            by,
            dir: by === 'name' || by === 'shortId' || by === 'deadline' || by === 'status' ? 'asc' : 'desc',
          };
    this.#changed();
  }
  setFilter(filter: ListFilter): void {
    this.#filter = filter;
    this.#changed();
  }
  setShowClosed(value: boolean): void {
    this.#showClosed = value;
    this.#changed();
  }
  setSubprojects(value: boolean): void {
    this.#subprojects = value;
    this.#changed();
  }
  setGroupByStatus(value: boolean): void {
    this.#groupByStatus = value;
    this.#changed();
  }

  /** The statuses to group by: the organization's, or one group when none are known. */
  regroup(): void {
    // Called from an effect that tracks only the statuses; the rebuild's own reads must not
    // become that effect's dependencies.
    untrack(() => {
      if (this.#groupByStatus) this.#rebuild();
    });
  }

  #changed(): void {
    savePref(`list.${this.#prefsKey}`, {
      sort: this.#sort,
      showClosed: this.#showClosed,
      subprojects: this.#subprojects,
      groupByStatus: this.#groupByStatus,
    } satisfies Prefs);
    this.#selected = {};
    this.#rebuild();
  }

  #rebuild(): void {
    const base: TaskFilter = {
      closed: this.#showClosed ? 'all' : 'open',
      topLevelOnly: false,
      ...this.#filter,
    };
    const sort = $state.snapshot(this.#sort);
    const subprojects = this.#subprojects;
    const make = (filter: TaskFilter): TaskWindow =>
      new TaskWindow((offset, limit) => this.#query({ offset, limit, filter, sort, subprojects }));
    const statuses = this.#statuses();
    if (this.#groupByStatus && statuses.length) {
      const wanted = base.statusIds;
      this.#groups = statuses
        .filter((status) => !wanted || wanted.includes(status.id))
        .map((status) => ({ status, window: make({ ...base, statusIds: [status.id] }) }));
    } else {
      this.#groups = [{ status: undefined, window: make(base) }];
    }
    for (const group of this.#groups) group.window.ensure(0, 0);
  }

  refresh(): void {
    for (const group of this.#groups) void group.window.refresh();
  }

  /**
   * Every row of the list as it is shown (its filter, sort and toggles; group after group when
   * grouped), read from the core in pages: what an export writes.
   */
  async allRows(): Promise<TaskRow[]> {
    const base: TaskFilter = {
      closed: this.#showClosed ? 'all' : 'open',
      topLevelOnly: false,
      ...this.#filter,
    };
    const sort = $state.snapshot(this.#sort);
    const subprojects = this.#subprojects;
    const filters = this.#groups.map((group) =>
      group.status ? { ...base, statusIds: [group.status.id] } : base,
    );
    const out: TaskRow[] = [];
    const PAGE = 5000;
    for (const filter of filters) {
      for (let offset = 0; ; offset += PAGE) {
        const { rows, total } = await this.#query({ offset, limit: PAGE, filter, sort, subprojects });
        out.push(...rows);
        if (!rows.length || offset + rows.length >= total) break;
      }
    }
    return out;
  }

  get loaded(): boolean {
    return this.#groups.every((group) => group.window.loaded);
  }
  /** The error shown instead of the list (a group with nothing read yet to keep). */
  get error(): string | undefined {
    return this.#groups.find((group) => group.window.error)?.window.error;
  }
  /** The error of a read again, shown above the rows kept from the last one. */
  get keptError(): string | undefined {
    return this.#groups.find((group) => group.window.keptError)?.window.keptError;
  }
  get total(): number {
    return this.#groups.reduce((sum, group) => sum + group.window.total, 0);
  }

  isCollapsed(group: number): boolean {
    const status = this.#groups[group]?.status;
    return status ? (this.#collapsed[status.id] ?? false) : false;
  }
  toggleGroup(group: number): void {
    const status = this.#groups[group]?.status;
    if (status) this.#collapsed[status.id] = !this.isCollapsed(group);
  }

  /** Lines of the list: with grouping, a header per non-empty status and its rows. */
  get itemCount(): number {
    if (!this.#groupByStatus || (this.#groups.length === 1 && !this.#groups[0]?.status)) {
      return this.#groups[0]?.window.total ?? 0;
    }
    let count = 0;
    this.#groups.forEach((group, g) => {
      if (!group.window.total) return;
      count += 1 + (this.isCollapsed(g) ? 0 : group.window.total);
    });
    return count;
  }

  item(index: number): ListItem | undefined {
    if (!this.#groupByStatus || (this.#groups.length === 1 && !this.#groups[0]?.status)) {
      return { kind: 'row', group: 0, index };
    }
    let offset = index;
    for (let g = 0; g < this.#groups.length; g++) {
      const total = this.#groups[g]?.window.total ?? 0;
      if (!total) continue;
      if (offset === 0) return { kind: 'group', group: g };
      offset -= 1;
      const size = this.isCollapsed(g) ? 0 : total;
      if (offset < size) return { kind: 'row', group: g, index: offset };
      offset -= size;
    }
    return undefined;
  }

  rowAt(index: number): TaskRow | undefined {
    const item = this.item(index);
    return item?.kind === 'row' ? this.#groups[item.group]?.window.row(item.index) : undefined;
  }

  /** Loads the rows of the visible line range. */
  ensure(start: number, end: number): void {
    const first = this.item(start);
    const last = this.item(end);
    if (!first || !last) return;
    for (let g = first.group; g <= last.group; g++) {
      const from = g === first.group && first.kind === 'row' ? first.index : 0;
      const to = g === last.group && last.kind === 'row' ? last.index : Number.MAX_SAFE_INTEGER;
      const window = this.#groups[g]?.window;
      if (window && !this.isCollapsed(g)) window.ensure(from, Math.min(to, Math.max(0, window.total - 1)));
    }
  }

  // Selection: click selects one, Ctrl/Cmd+click toggles, Shift+click extends from the anchor.
  get active(): number {
    return this.#active;
  }
  set active(index: number) {
    this.#active = Math.max(0, Math.min(index, this.itemCount - 1));
  }
  isSelected(id: string): boolean {
    return this.#selected[id] === true;
  }
  get selectedIds(): string[] {
    return Object.keys(this.#selected);
  }
  clearSelection(): void {
    this.#selected = {};
  }
  /**
   * Moves the selection to the row at `index`: `only` selects it alone, `toggle` adds or takes
   * it out, `range` selects from the anchor to it, and `anchor` (a plain click, which opens the
   * task) selects nothing and makes it the start of a Shift+click range: opening a task is not
   * choosing it for a bulk change.
   */
  select(index: number, mode: 'only' | 'toggle' | 'range' | 'anchor'): void {
    const row = this.rowAt(index);
    this.#active = index;
    if (!row) return;
    if (mode === 'anchor') {
      this.#selected = {};
      this.#anchor = index;
    } else if (mode === 'only') {
      this.#selected = { [row.id]: true };
      this.#anchor = index;
    } else if (mode === 'toggle') {
      if (this.#selected[row.id]) delete this.#selected[row.id];
      else this.#selected[row.id] = true;
      this.#anchor = index;
    } else {
      const from = Math.min(this.#anchor ?? index, index);
      const to = Math.max(this.#anchor ?? index, index);
      const next: Record<string, true> = {};
      for (let i = from; i <= to; i++) {
        const id = this.rowAt(i)?.id;
        if (id) next[id] = true;
      }
      this.#selected = next;
    }
  }

  /** Every loaded row (the board draws these by status). */
  get loadedRows(): TaskRow[] {
    return this.#groups.flatMap((group) => group.window.rows.filter((row): row is TaskRow => !!row));
  }
}
