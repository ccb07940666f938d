// createCore with a connection serves the engine's read channels and forwards its events.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../support/service';
import { createCore, type Core } from '../../../src/main/core/core';
import { cacheFileFor } from '../../../src/main/core/engine';
import { closedStampOf } from '../../../src/main/core/cache/recovery';
import type { SyncStatus } from '../../../src/shared/ipc/sync';

let svc: RunningService;
let core: Core;
let dir: string;
const seen: string[] = [];
let synced: Promise<SyncStatus>;

beforeAll(async () => {
  svc = await startService({ seed: 'demo' });
  dir = mkdtempSync(join(tmpdir(), 'core-test-'));
  core = await createCore({
    version: '0.0.0',
    transport: 'web',
    dataDir: dir,
    connection: { baseUrl: svc.baseUrl, token: svc.token, userId: svc.users.actingUserId },
  });
  synced = new Promise((resolve) => {
    core.events.onAny((name, payload) => {
      seen.push(name);
      const s = payload as SyncStatus;
      if (name === 'sync.onDidChangeStatus' && !s.running && s.lastSyncedAt) resolve(s);
    });
  });
});
afterAll(async () => {
  await core?.close();
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('createCore with a connection', () => {
  it('syncs at start, forwards cache and status events, and answers read channels', async () => {
    const status = await synced;
    expect(status.lastError).toBeNull();
    expect(seen).toEqual(expect.arrayContaining(['cache.onDidChange', 'sync.onDidChangeStatus']));
    const tree = await core.dispatch('projects.tree', {});
    expect(tree.ok && (tree.value as { nodes: unknown[] }).nodes.length).toBeGreaterThan(0);
    expect(await core.dispatch('app.info', {})).toMatchObject({ ok: true });
    // The token names no file and reaches no payload.
    expect(cacheFileFor(dir, { baseUrl: svc.baseUrl, userId: svc.users.actingUserId })).not.toContain(
      svc.token,
    );
    expect(JSON.stringify(await core.dispatch('sync.status', {}))).not.toContain(svc.token);
  });

  it('closing stamps the cache file as closed clean; opening again takes the stamp', async () => {
    await synced;
    const connection = { baseUrl: svc.baseUrl, token: svc.token, userId: svc.users.actingUserId };
    const stamp = closedStampOf(cacheFileFor(dir, connection));
    expect(existsSync(stamp)).toBe(false);
    await core.close();
    expect(existsSync(stamp)).toBe(true);
    core = await createCore({ version: '0.0.0', transport: 'web', dataDir: dir, connection });
    expect(existsSync(stamp)).toBe(false);
    expect(core.engine?.notices).toEqual([]);
    const tree = await core.dispatch('projects.tree', {});
    expect(tree.ok && (tree.value as { nodes: unknown[] }).nodes.length).toBeGreaterThan(0);
  });
});
