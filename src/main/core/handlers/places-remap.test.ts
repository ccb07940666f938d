// The window's place naming a task created offline: the outbox sends it before the next start
// reads the place, and the place is answered with the task's real id (the real outbox and cache).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeServiceClient } from '../api/testing';
import { openCacheDb } from '../cache/db';
import { aProject } from '../cache/fixtures';
import { queueOf, stoppedClockOutbox } from '../outbox/testing';
import { accountCache, ENTITIES, KIND_FACTORIES } from './index';
import { heldIn, placeHandlers } from './places';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a place naming a task created offline', () => {
  it('reopens on the task under its real id once the service acknowledged it', async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.projects.upsertMany([aProject({ id: 'p1', ownerUserId: 'u-me' })]);
    cache.org.statuses.replace([{ id: 's-new', name: 'New', systemStatus: 1, isClosed: false }]);
    const client = fakeServiceClient({
      createTask: () => ({ id: 'T1', shortId: '1', momentCreated: '2026-11-21 12:00:00.000000' }),
    });
    const outbox = stoppedClockOutbox({
      cache,
      client,
      userId: 'u-me',
      now: Date.UTC(2026, 10, 21, 12),
      kindModules: KIND_FACTORIES,
      entities: ENTITIES,
      emit: () => {},
    });
    outbox.write('task.create', {
      tempId: 'local-a',
      draftId: 'draft-a',
      input: { projectId: 'p1', title: 'Offline' },
    });
    dir = mkdtempSync(join(tmpdir(), 'workdesk-place-remap-'));
    const logged: string[] = [];
    const places = placeHandlers({
      dir,
      held: heldIn(cache),
      realIdOf: (id) => outbox.realIdOf(id),
      log: (m) => logged.push(m),
    });
    // The window was on the task (created offline) when the app closed.
    await places['app.rememberPlace']({ kind: 'mywork', tab: 'action', taskId: 'local-a' });
    // Next start: the outbox sends it and the service acknowledges before the window reads its place.
    outbox.start();
    await queueOf(outbox).idle();
    await outbox.stop();
    expect(cache.tasks.row('T1')).not.toBeNull();
    expect(await places['app.lastPlace']({})).toEqual({ kind: 'mywork', tab: 'action', taskId: 'T1' });
    expect(logged).toEqual([]);
  });
});
