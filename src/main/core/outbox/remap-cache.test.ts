import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeAccountDb, openAccountDb, type AccountDbFiles } from '../cache/db';
import { localIdColumnsOf } from '../entities';
import { accountCache, ENTITIES } from '../handlers/index';
import { cacheRemapper, healCacheRemaps } from './remap-cache';
import { TempIdMap } from './temp-ids';

let dir: string;
let files: AccountDbFiles;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'remap-cache-'));
  files = { cache: join(dir, 'cache.sqlite'), outbox: join(dir, 'outbox.sqlite') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An account's two files, its cache, its id map and its cache remapper, as the engine has them. */
function open() {
  const { db } = openAccountDb(files);
  const cache = accountCache(db);
  const remap = cacheRemapper(db, localIdColumnsOf(ENTITIES));
  return { db, cache, ids: new TempIdMap(db), remap };
}

/** A dependency from an event created offline to a task, as the cache holds it until the ack. */
function dependencyOfLocalEvent(cache: ReturnType<typeof open>['cache']): void {
  cache.dependencies.put({
    id: 'local-dep',
    type: 5,
    predecessorKind: 'event',
    predecessorId: 'local-event',
    successorKind: 'task',
    successorId: 'T1',
  });
}

/** An acknowledgement as the outbox makes it: the id map, then the cache's remap, in one transaction. */
function acknowledge(account: ReturnType<typeof open>, temp: string, real: string, cacheHalf = true): void {
  account.db.transaction(() => {
    account.ids.remap(temp, real, Date.now());
    if (cacheHalf) account.remap(temp, real);
  })();
}

describe("the cache's remap of acknowledged creates, across a crash between the two files' commits", () => {
  it('applies again at open a mapping whose remap the cache lost, and only those', () => {
    const first = open();
    expect(healCacheRemaps(first.db, first.remap)).toBe(0);
    dependencyOfLocalEvent(first.cache);
    acknowledge(first, 'local-task', 'T9');
    // The event's acknowledgement: the outbox's file committed, the cache's remap lost (what a
    // kill between the two commits leaves; done here by leaving the cache's half out).
    acknowledge(first, 'local-event', 'EV1', false);
    expect(first.cache.dependencies.touching(['T1'])[0]).toMatchObject({ predecessorId: 'local-event' });
    closeAccountDb(first.db);

    const second = open();
    expect(healCacheRemaps(second.db, second.remap)).toBe(1);
    expect(second.cache.dependencies.touching(['T1'])).toEqual([
      expect.objectContaining({ id: 'local-dep', predecessorKind: 'event', predecessorId: 'EV1' }),
    ]);
    // Applied once: the next open has nothing to apply again.
    expect(healCacheRemaps(second.db, second.remap)).toBe(0);
    // A remap made whole in one transaction moves the mark with it.
    acknowledge(second, 'local-dep', 'D1');
    expect(healCacheRemaps(second.db, second.remap)).toBe(0);
    expect(second.cache.dependencies.touching(['T1'])).toEqual([
      expect.objectContaining({ id: 'D1', predecessorId: 'EV1', successorId: 'T1' }),
    ]);
    closeAccountDb(second.db);
  });

  it('takes the last mapping as its mark in a cache that has none, scanning nothing', () => {
    const first = open();
    dependencyOfLocalEvent(first.cache);
    // Mappings made before the mark existed (no heal ran): the cache is left as it is.
    acknowledge(first, 'local-event', 'EV1', false);
    expect(healCacheRemaps(first.db, first.remap)).toBe(0);
    expect(first.cache.dependencies.touching(['T1'])[0]).toMatchObject({ predecessorId: 'local-event' });
    // From then on a lost remap is applied again.
    acknowledge(first, 'local-other', 'EV2', false);
    first.cache.dependencies.put({
      id: 'local-dep2',
      type: 5,
      predecessorKind: 'event',
      predecessorId: 'local-other',
      successorKind: 'task',
      successorId: 'T2',
    });
    expect(healCacheRemaps(first.db, first.remap)).toBe(1);
    expect(first.cache.dependencies.touching(['T2'])[0]).toMatchObject({ predecessorId: 'EV2' });
    closeAccountDb(first.db);
  });
});
