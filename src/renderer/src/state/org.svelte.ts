// Organization records for pickers and labels: users, statuses, task types, custom fields,
// tags. Read once the core answers, and again when the cache says one of them changed.
import type { ChannelOutput } from '@shared/ipc/contract';
import type { Bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import type { PickerOption } from '../components/ui/Picker.svelte';
import { describeError } from '../lib/errors';
import { PRIORITIES, priorityLabel, projectColor } from '../lib/format';

export type User = ChannelOutput<'org.users'>[number];
export type Status = ChannelOutput<'org.statuses'>[number];
export type TaskType = ChannelOutput<'org.taskTypes'>[number];
export type CustomField = ChannelOutput<'org.customFields'>[number];
export type Tag = ChannelOutput<'org.tags'>[number];

/** A status color from its kind, so lists and boards read at a glance. */
export function statusColor(status: { name: string; isClosed?: boolean } | undefined): string {
  if (!status) return 'var(--color-text-faint)';
  const name = status.name.toLowerCase();
  if (status.isClosed || /done|complete|closed|resolved/.test(name)) return 'var(--color-success)';
  if (/cancel|reject/.test(name)) return 'var(--color-text-faint)';
  if (/hold|block|wait/.test(name)) return 'var(--color-warning)';
  if (/progress|review|doing|started/.test(name) && !/not started/.test(name)) return 'var(--color-accent)';
  return 'var(--color-status-idle)';
}

export class OrgState {
  #users = $state.raw<User[]>([]);
  #statuses = $state.raw<Status[]>([]);
  #taskTypes = $state.raw<TaskType[]>([]);
  #customFields = $state.raw<CustomField[]>([]);
  #tags = $state.raw<Tag[]>([]);
  #error = $state<string | undefined>();
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  get users(): readonly User[] {
    return this.#users;
  }
  get statuses(): readonly Status[] {
    return this.#statuses;
  }
  get taskTypes(): readonly TaskType[] {
    return this.#taskTypes;
  }
  get customFields(): readonly CustomField[] {
    return this.#customFields;
  }
  get tags(): readonly Tag[] {
    return this.#tags;
  }
  get error(): string | undefined {
    return this.#error;
  }

  /** Loads everything and follows cache changes; returns the unsubscribe. */
  start(): () => void {
    void this.load();
    return onCacheChange(
      this.#bridge,
      ['users', 'statuses', 'taskTypes', 'customFields', 'tags'],
      () => void this.load(),
    );
  }

  async load(): Promise<void> {
    try {
      const [users, statuses, taskTypes, customFields, tags] = await Promise.all([
        this.#bridge.invoke('org.users', {}),
        this.#bridge.invoke('org.statuses', {}),
        this.#bridge.invoke('org.taskTypes', {}),
        this.#bridge.invoke('org.customFields', {}),
        this.#bridge.invoke('org.tags', {}),
      ]);
      this.#users = [...users].sort((a, b) => a.name.localeCompare(b.name));
      this.#statuses = statuses;
      this.#taskTypes = taskTypes;
      this.#customFields = [...customFields].sort((a, b) => a.sortPosition - b.sortPosition);
      this.#tags = [...tags].sort((a, b) => a.name.localeCompare(b.name));
      this.#error = undefined;
    } catch (err) {
      this.#error = describeError(err);
    }
  }

  user(id: string | null | undefined): User | undefined {
    return id ? this.#users.find((user) => user.id === id) : undefined;
  }
  userName(id: string | null | undefined): string {
    if (!id) return '';
    return this.user(id)?.name ?? 'Unknown user';
  }
  status(id: string | null | undefined): Status | undefined {
    return id ? this.#statuses.find((status) => status.id === id) : undefined;
  }
  tagName(id: string): string {
    return this.#tags.find((tag) => tag.id === id)?.name ?? 'Tag';
  }

  get userOptions(): PickerOption[] {
    return this.#users.map((user) => ({ value: user.id, label: user.name }));
  }
  get statusOptions(): PickerOption[] {
    return this.#statuses.map((status) => ({
      value: status.id,
      label: status.name,
      color: statusColor(status),
    }));
  }
  get taskTypeOptions(): PickerOption[] {
    return this.#taskTypes.map((type) => ({ value: type.id, label: type.name }));
  }
  get tagOptions(): PickerOption[] {
    // A tag's color is a number of the service's palette (1-24, as a project's): a swatch.
    return this.#tags.map((tag) => ({ value: tag.id, label: tag.name, color: projectColor(tag.color) }));
  }
}

export const priorityOptions: PickerOption[] = PRIORITIES.map((p) => ({
  value: String(p),
  label: priorityLabel(p),
}));
