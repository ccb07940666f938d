// A project's timeline: its dated tasks and milestones, and the dependencies among them, read
// again when the cache says tasks, events or dependencies changed.
import type { DependencyView } from '@shared/ipc/tasks';
import type { Bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { describeError } from '../lib/errors';
import { yearsAround } from '../lib/calendar';
import { taskSpan, type TimelineItem } from '../lib/timeline';
import { uniqueDependencies } from '../lib/dependencies';
import { oneAtATime } from '../lib/one-at-a-time';

/** Tasks read for the strip; a project with more shows its first ones by start. */
const TASK_LIMIT = 2000;
/** Tasks whose dependencies are read (each one is a detail read). */
const DEPENDENCY_TASKS = 40;

export class TimelineState {
  #items = $state.raw<TimelineItem[]>([]);
  #dependencies = $state.raw<DependencyView[]>([]);
  #loaded = $state(false);
  #error = $state<string | undefined>();
  readonly #bridge: Bridge;
  readonly projectId: string;

  constructor(bridge: Bridge, projectId: string) {
    this.#bridge = bridge;
    this.projectId = projectId;
  }

  get items(): readonly TimelineItem[] {
    return this.#items;
  }
  get dependencies(): readonly DependencyView[] {
    return this.#dependencies;
  }
  get loaded(): boolean {
    return this.#loaded;
  }
  get error(): string | undefined {
    return this.#error;
  }

  start(): () => void {
    void this.load();
    return onCacheChange(this.#bridge, ['tasks', 'events', 'dependencies'], () => void this.load());
  }

  /** Reads again; one read at a time (a sync changes tasks every frame). */
  readonly load: () => Promise<void> = oneAtATime(() => this.#read());

  async #read(): Promise<void> {
    try {
      const [tasks, milestones] = await Promise.all([
        this.#bridge.invoke('tasks.list', {
          projectId: this.projectId,
          limit: TASK_LIMIT,
          filter: { closed: 'all', topLevelOnly: false },
          sort: { by: 'deadline', dir: 'asc' },
        }),
        this.#bridge.invoke('events.list', {
          ...yearsAround(3),
          types: ['project-milestone'],
          projectId: this.projectId,
        }),
      ]);
      const dated = tasks.rows.flatMap((task) => {
        const span = taskSpan(task);
        return span
          ? [{ kind: 'task' as const, id: task.id, name: task.name, ...span, milestone: false }]
          : [];
      });
      const items: TimelineItem[] = [
        ...dated,
        ...milestones.map((event) => ({
          kind: 'event' as const,
          id: event.id,
          name: event.name,
          start: event.startDate,
          end: event.startDate,
          milestone: true,
        })),
      ];
      const details = await Promise.all(
        dated
          .slice(0, DEPENDENCY_TASKS)
          .map((task) => this.#bridge.invoke('tasks.detail', { taskId: task.id }).catch(() => undefined)),
      );
      this.#items = items;
      this.#dependencies = uniqueDependencies(details.map((detail) => detail?.dependencies ?? []));
      this.#error = undefined;
    } catch (err) {
      this.#error = describeError(err);
    } finally {
      this.#loaded = true;
    }
  }
}
