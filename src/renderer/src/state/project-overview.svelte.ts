// One project in depth: its fields, members, documents, history, custom fields, settings and
// milestones, read again when the cache says one of them changed; and the document open in
// the reader.
import type { ProjectDetail, DocumentView } from '@shared/ipc/projects';
import type { CalendarEvent } from '@shared/api/events';
import type { Bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { describeError, failedReadAgain, failedReadNote } from '../lib/errors';
import { yearsAround } from '../lib/calendar';

/** Milestones are read over this many years either side of today. */
const MILESTONE_YEARS = 3;

export class ProjectOverviewState {
  #detail = $state.raw<ProjectDetail | undefined>();
  #milestones = $state.raw<CalendarEvent[]>([]);
  #error = $state<string | undefined>();
  #missing = $state(false);
  #document = $state.raw<DocumentView | undefined>();
  #documentError = $state<string | undefined>();
  readonly #bridge: Bridge;
  readonly projectId: string;

  constructor(bridge: Bridge, projectId: string) {
    this.#bridge = bridge;
    this.projectId = projectId;
  }

  get detail(): ProjectDetail | undefined {
    return this.#detail;
  }
  get milestones(): readonly CalendarEvent[] {
    return this.#milestones;
  }
  get error(): string | undefined {
    return this.#error;
  }
  get missing(): boolean {
    return this.#missing;
  }
  get document(): DocumentView | undefined {
    return this.#document;
  }
  get documentError(): string | undefined {
    return this.#documentError;
  }

  start(): () => void {
    void this.load();
    const offDetail = onCacheChange(
      this.#bridge,
      ['projects', 'members', 'documents', 'history', 'customFields'],
      () => void this.load(),
      () => [this.projectId],
    );
    const offEvents = onCacheChange(this.#bridge, ['events'], () => void this.#loadMilestones());
    return () => {
      offDetail();
      offEvents();
    };
  }

  async load(): Promise<void> {
    try {
      this.#detail = await this.#bridge.invoke('projects.detail', { projectId: this.projectId });
      this.#error = undefined;
      this.#missing = false;
    } catch (err) {
      const failed = failedReadAgain(err, 'projectId');
      if (failed === 'gone') {
        this.#missing = true;
        this.#detail = undefined;
      } else {
        if (failed === 'not-held') this.#detail = undefined;
        this.#error = failedReadNote(err, this.#detail !== undefined);
      }
    }
    await this.#loadMilestones();
  }

  async #loadMilestones(): Promise<void> {
    try {
      const events = await this.#bridge.invoke('events.list', {
        ...yearsAround(MILESTONE_YEARS),
        types: ['project-milestone'],
        projectId: this.projectId,
      });
      this.#milestones = [...events].sort((a, b) => a.startDate.localeCompare(b.startDate));
    } catch {
      // The calendar shows event read errors; the overview simply lists no milestones.
      this.#milestones = [];
    }
  }

  /** Opens a document in the reader (undefined closes it). */
  async openDocument(documentId: string | undefined): Promise<void> {
    this.#documentError = undefined;
    if (!documentId) {
      this.#document = undefined;
      return;
    }
    try {
      this.#document = await this.#bridge.invoke('documents.get', { documentId });
    } catch (err) {
      this.#document = undefined;
      this.#documentError = describeError(err);
    }
  }
}
