// The folder/project tree of the sidebar: nodes from the cache, which are expanded (kept
// between runs), whether archived projects show.
import { untrack } from 'svelte';
import { z } from 'zod';
import type { ProjectNode } from '@shared/ipc/projects';
import type { Bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { ListReadError } from '../lib/list-read-error.svelte';
import { loadPref, savePref } from '../lib/storage';
import type { PickerOption } from '../components/ui/Picker.svelte';
import { oneAtATime } from '../lib/one-at-a-time';

export class TreeState {
  #nodes = $state.raw<ProjectNode[]>([]);
  #loaded = $state(false);
  readonly #error = new ListReadError();
  /** Whether a read has answered: what is shown is kept when a later one fails. */
  #answered = false;
  #expanded = $state<Record<string, boolean>>(
    loadPref('tree.expanded', z.record(z.string(), z.boolean()), {}),
  );
  #showArchived = $state(loadPref('tree.archived', z.boolean(), false));
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  start(): () => void {
    void this.load();
    return onCacheChange(this.#bridge, ['projects', 'tasks'], () => void this.load());
  }

  /** Reads again; one read at a time (a sync changes tasks every frame). */
  readonly load: () => Promise<void> = oneAtATime(() => this.#read());

  async #read(): Promise<void> {
    try {
      const { nodes } = await this.#bridge.invoke('projects.tree', { includeArchived: true });
      this.#nodes = nodes;
      this.#answered = true;
      this.#error.cleared();
    } catch (err) {
      this.#error.failed(err, this.#answered);
    } finally {
      this.#loaded = true;
    }
  }

  get loaded(): boolean {
    return this.#loaded;
  }
  /** The error shown instead of the tree (nothing read yet to keep). */
  get error(): string | undefined {
    return this.#error.shown;
  }
  /** The error of a read again, shown above the projects kept from the last one. */
  get keptError(): string | undefined {
    return this.#error.kept;
  }
  get all(): readonly ProjectNode[] {
    return this.#nodes;
  }
  get showArchived(): boolean {
    return this.#showArchived;
  }
  set showArchived(value: boolean) {
    this.#showArchived = value;
    savePref('tree.archived', value);
  }

  /** The nodes to draw: depth-first, skipping collapsed subtrees and (unless shown) archived ones. */
  get visible(): ProjectNode[] {
    const out: ProjectNode[] = [];
    let hideBelow = Infinity;
    for (const node of this.#nodes) {
      if (node.depth > hideBelow) continue;
      hideBelow = Infinity;
      if (node.archived && !this.#showArchived) {
        hideBelow = node.depth;
        continue;
      }
      out.push(node);
      if (!this.isExpanded(node.id)) hideBelow = node.depth;
    }
    return out;
  }

  hasChildren(id: string): boolean {
    return this.#nodes.some((node) => node.parentProjectId === id);
  }
  isExpanded(id: string): boolean {
    return this.#expanded[id] ?? false;
  }
  toggle(id: string, open = !this.isExpanded(id)): void {
    this.#expanded[id] = open;
    savePref('tree.expanded', this.#expanded);
  }
  /** Opens every ancestor so a node becomes visible. */
  reveal(id: string): void {
    // Called from effects: reading the expansion state here must not make it their dependency.
    untrack(() => {
      let parent = this.node(id)?.parentProjectId;
      let changed = false;
      while (parent) {
        if (!this.#expanded[parent]) {
          this.#expanded[parent] = true;
          changed = true;
        }
        parent = this.node(parent)?.parentProjectId;
      }
      if (changed) savePref('tree.expanded', this.#expanded);
    });
  }

  node(id: string | null | undefined): ProjectNode | undefined {
    return id ? this.#nodes.find((node) => node.id === id) : undefined;
  }
  name(id: string | null | undefined): string {
    return this.node(id)?.name ?? '';
  }
  /** "Folder / Sub / Project" for pickers. */
  path(id: string): string {
    const names: string[] = [];
    let node = this.node(id);
    while (node) {
      names.unshift(node.name);
      node = this.node(node.parentProjectId);
    }
    return names.join(' / ');
  }

  /** Open projects and folders as picker options, with their folder path as the hint. */
  get projectOptions(): PickerOption[] {
    return this.#nodes
      .filter((node) => !node.archived)
      .map((node) => ({
        value: node.id,
        label: node.name,
        hint: node.parentProjectId ? this.path(node.parentProjectId) : undefined,
      }));
  }
}
