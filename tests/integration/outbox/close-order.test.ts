// What an engine's close promises whoever reads the cache last (the record of the first screen is
// read there): once its `beforeDbClose` runs, the outbox and the sync have stopped, a send that was
// under way has stored its answer, and nothing writes the cache any more.
import { describe, expect, it, vi } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { writesSuite } from './support';

const suite = writesSuite();

describe("an engine's close", () => {
  it('runs beforeDbClose once nothing writes the cache any more, a send under way answered first', async () => {
    const e = await suite.engine();
    // Each request takes a while: the create below is still under way when the close begins.
    suite.proxy.set({ delayMs: 300 });
    const created = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'Sent as the app quits',
    });
    expect(created.id).toMatch(/^local-/);
    const asked = suite.proxy.stats().received;
    queueOf(e.outbox).kick();
    // The create has reached the proxy: its send is under way when the close begins.
    await vi.waitFor(() => expect(suite.proxy.stats().received).toBeGreaterThan(asked), { timeout: 5_000 });
    const totalChanges = e.db.prepare('SELECT total_changes()').pluck();
    let seen: { changesAtStart: number; changesAfterWait: number; names: string[] } | undefined;
    await suite.close(e, async () => {
      const changesAtStart = totalChanges.get() as number;
      // Longer than the request's delay: a send still under way would store its answer now.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const names = e.db
        .prepare('SELECT name FROM tasks WHERE name = ?')
        .pluck()
        .all('Sent as the app quits') as string[];
      seen = { changesAtStart, changesAfterWait: totalChanges.get() as number, names };
    });
    expect(seen).toBeDefined();
    expect(seen!.changesAfterWait).toBe(seen!.changesAtStart);
    expect(seen!.names).toEqual(['Sent as the app quits']);
  });
});
