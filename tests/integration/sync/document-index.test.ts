// Documents are found by their text before anyone opens them: the list the pull brings has no
// content, so the engine fetches each new or changed document's text after the pull.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { testEngine } from '../engine/support';
import { documentStore } from '../../../src/server/db/documents';
import { formatLocalTimestamp } from '../../../src/shared/api/common';

describe.each(SERVICE_PROFILES)('on the %s profile', (profile) => {
  let svc: RunningService;
  let engine: Awaited<ReturnType<typeof testEngine>>;

  beforeAll(async () => {
    svc = await startService({ seed: 'demo', profile });
    engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
    expect((await engine.sync.now()).lastError).toBeNull();
    // The demo's documents are indexed once after the first pull.
    await engine.sync.indexDocuments();
  });

  afterAll(async () => {
    await engine?.close();
    await svc?.close();
  });

  /** Writes documents straight into the service's database, as another user's app would (the API has no document write). */
  function writeDocuments(count: number, projectId: string, word: string): string[] {
    const db = new Database(join(svc.dataDir, 'service.sqlite'));
    try {
      const at = formatLocalTimestamp(new Date());
      const ids = Array.from({ length: count }, (_, n) => `idx-${word}-${n}`);
      for (const id of ids)
        documentStore(db).insert({
          id,
          project_id: projectId,
          name: `Notes ${id}`,
          created_by_user_id: svc.users.admin,
          moment_created: at,
          moment_updated: at,
          content: `## Minutes\n\nWe agreed on the **${word}** plan for item ${id}.`,
        });
      return ids;
    } finally {
      db.close();
    }
  }

  describe('document text in the search', () => {
    it('finds a document by words of its text after a pull, without opening it, at one request per new document', async () => {
      const { nodes } = await engine.call('projects.tree', {});
      const project = nodes.find((n) => !n.isFolder && !n.archived)!;
      writeDocuments(1, project.id, 'zanzibar');
      expect((await engine.sync.now()).lastError).toBeNull();
      await engine.sync.indexDocuments();
      const { hits } = await engine.call('search.query', {
        text: 'zanzibar',
        kinds: ['document'],
        limit: 10,
      });
      expect(hits).toEqual([
        expect.objectContaining({
          id: 'idx-zanzibar-0',
          projectId: project.id,
          title: 'Notes idx-zanzibar-0',
        }),
      ]);
      // The snippet is plain text: no "**" or "##" from the Markdown.
      expect(hits[0]!.snippet).not.toMatch(/[*#]/);

      // Nothing changed: no document is fetched again (the pull's own requests only).
      const quiet = engine.client.requestCount;
      await engine.sync.now();
      expect((await engine.sync.indexDocuments()).fetched).toBe(0);
      const pullRequests = engine.client.requestCount - quiet;

      // The cost: one GET /document/{id} per new or changed document, one at a time, after the pull.
      writeDocuments(200, project.id, 'quokka');
      const start = engine.client.requestCount;
      await engine.sync.now();
      const report = await engine.sync.indexDocuments();
      expect(report).toMatchObject({ fetched: 200, failed: 0 });
      expect(engine.client.requestCount - start).toBe(pullRequests + 200);
      console.log(`document index: 200 documents in ${report.ms} ms on loopback`);
      const found = await engine.call('search.query', { text: 'quokka', kinds: ['document'], limit: 500 });
      expect(found.hits).toHaveLength(200);
    });
  });
});
