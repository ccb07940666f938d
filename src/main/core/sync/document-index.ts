import type { SyncDeps } from './context';
import { fetchUnlessGone, type OnDemandRead } from './on-demand';
import { documentEndpoints } from '../../../shared/api/documents';

/**
 * The on-demand read of a document, what its view opens: `sync.onDemand.run(documentReads.document(id))`.
 * It lives in sync rather than in the document's descriptor (`entities/projects.ts`) because the
 * document index below, part of sync, fetches through it too.
 */
export const documentReads = {
  document:
    (documentId: string): OnDemandRead =>
    (deps, gate) =>
      fetchUnlessGone(
        deps.cache,
        async () => {
          const doc = await gate((s) => deps.client.call(documentEndpoints.document, { id: documentId }, s));
          deps.cache.transaction(() => deps.cache.projectParts.putDocument(doc));
          deps.emitChange({ entities: ['documents'], ids: { documents: [documentId] } });
        },
        () => {
          if (!deps.pending.isPendingStructural('document', documentId))
            deps.cache.projectParts.deleteDocument(documentId);
        },
      ),
};

/** What one indexing run did, for the log and the tests. */
export interface DocumentIndexReport {
  /** Documents whose content was fetched and indexed. */
  fetched: number;
  /** Fetches that failed (tried again after the next pull). */
  failed: number;
  /** Wall time of the run, in milliseconds. */
  ms: number;
}

/**
 * Makes documents findable by their text before anyone opens them. The service's document list
 * has no content (the spec's list item lacks it; only `GET /document/{id}` has it), so after a
 * pull each document whose content is missing or older than its `momentUpdated` is fetched, one
 * at a time, through the same fetch a view uses when it opens the document: the full-text index
 * follows the cache by its triggers. One request per new or changed document; a document whose
 * content is current costs nothing. Documents created here and not yet sent are left alone.
 */
export function createDocumentIndexer(
  deps: Pick<SyncDeps, 'cache' | 'pending' | 'log' | 'clock'>,
  fetchDocument: (id: string) => Promise<'ok' | 'gone'>,
) {
  let running: Promise<DocumentIndexReport> | null = null;
  let stopped = false;

  async function index(): Promise<DocumentIndexReport> {
    const started = deps.clock().getTime();
    const tried = new Set<string>();
    let fetched = 0;
    let failed = 0;
    for (;;) {
      const next = deps.cache.projectParts
        .documentsToIndex(50)
        .filter((id) => !tried.has(id) && !deps.pending.isPendingStructural('document', id));
      if (!next.length || stopped) break;
      for (const id of next) {
        if (stopped) break;
        tried.add(id);
        try {
          await fetchDocument(id);
          fetched++;
        } catch {
          // Offline or refused: the next pull's run tries it again.
          failed++;
        }
      }
    }
    const ms = deps.clock().getTime() - started;
    if (fetched || failed)
      deps.log(`document index: ${fetched} document(s) fetched for their text in ${ms} ms, ${failed} failed`);
    return { fetched, failed, ms };
  }

  return {
    /** Starts a run, or joins the one going. */
    run(): Promise<DocumentIndexReport> {
      if (stopped) return Promise.resolve({ fetched: 0, failed: 0, ms: 0 });
      running ??= index().finally(() => (running = null));
      return running;
    },
    /** Stops after the fetch in flight; resolves when the run has ended. */
    async stop(): Promise<void> {
      stopped = true;
      await running;
    },
  };
}
