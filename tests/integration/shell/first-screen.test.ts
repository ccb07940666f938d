// The first-screen record through the real session, cache and web host: written when the session
// closes, answered by the host while the next core opens, and then the same as the core's own
// answers (the page told to read them again).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startHostSession } from '../../../src/main/core/accounts/host-session';
import type { Session } from '../../../src/main/core/accounts/session';
import { createFileSecretStore } from '../../../src/main/core/accounts/secret-store';
import { createJsonSettingsStore } from '../../../src/main/core/accounts/settings-store';
import { startBundledServer } from '../../../src/main/core/bundled-server';
import { loadFirstScreen } from '../../../src/main/core/accounts/first-screen';
import { FIRST_SCREEN_CALLS } from '../../../src/main/core/accounts/first-screen-write';
import { startWebHost, type CoreFacade, type WebHost } from '../../../src/main/core/web-host';

let dir: string;
let session: Session | undefined;
let host: WebHost | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-first-screen-'));
});
afterEach(async () => {
  await host?.close();
  await session?.close();
  host = undefined;
  session = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const open = (): Promise<Session> =>
  startHostSession({
    dataDir: dir,
    settings: createJsonSettingsStore(join(dir, 'settings.json')),
    secrets: createFileSecretStore(join(dir, 'secrets.json')),
    startServer: startBundledServer,
    version: 'test',
    transport: 'web',
    log: () => {},
  });

/** A page's bridge to `web`: its calls by id, and the events it was sent. */
async function bridge(web: WebHost) {
  const { origin, hash } = new URL(web.url);
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/bridge?${hash.slice(1)}`, {
    headers: { origin },
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const events: { event: string; payload: unknown }[] = [];
  const answers = new Map<number, (result: unknown) => void>();
  ws.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as {
      id?: number;
      result?: unknown;
      event?: string;
      payload?: unknown;
    };
    if (message.event) events.push({ event: message.event, payload: message.payload });
    else if (message.id !== undefined) answers.get(message.id)?.(message.result);
  });
  let next = 1;
  return {
    ws,
    events,
    call(channel: string, arg: unknown): Promise<unknown> {
      const id = next++;
      return new Promise((resolve) => {
        answers.set(id, resolve);
        ws.send(JSON.stringify({ id, channel, arg }));
      });
    },
  };
}

describe('the first-screen record on the local workspace', () => {
  it("answers the window's first reads while the next core opens, exactly as that core then answers them", async () => {
    // A first run: the workspace synced into the cache, then closed (the record written).
    session = await open();
    expect(await session.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await session.close();
    session = undefined;

    const logged: string[] = [];
    const screen = loadFirstScreen({ dataDir: dir, version: 'test', log: (m) => logged.push(m) });
    expect(screen, logged.join('\n')).toBeDefined();
    let openCore: (core: CoreFacade) => void = () => {};
    host = await startWebHost({ core: new Promise((resolve) => (openCore = resolve)), rendererDir: dir });
    host.serveFirstScreen(screen!);
    const page = await bridge(host);

    // No core yet: every first read is answered, from the record.
    const early = await Promise.all(FIRST_SCREEN_CALLS.map(([channel, arg]) => page.call(channel, arg)));
    for (const answer of early) expect(answer).toMatchObject({ ok: true });
    const inbox = early[FIRST_SCREEN_CALLS.findIndex(([channel]) => channel === 'inbox.list')] as {
      value: { rows: unknown[]; total: number };
    };
    expect(inbox.value.rows.length).toBeGreaterThan(0);

    // The core opens: the page is told to read again, and the core answers as the record did.
    session = await open();
    openCore(session);
    await vi.waitFor(
      () =>
        expect(page.events).toContainEqual({
          event: 'cache.onDidChange',
          payload: { entities: expect.arrayContaining(['tasks', 'projects', 'users']) },
        }),
      { timeout: 10_000 },
    );
    const late = await Promise.all(FIRST_SCREEN_CALLS.map(([channel, arg]) => page.call(channel, arg)));
    expect(late).toEqual(early);
    page.ws.close();
  });

  it('is not served once the cache changed after it was written (a run that ended without closing)', async () => {
    session = await open();
    expect(await session.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await session.close();
    // Opened again and changed, then left without a close (as a crash would): the record is
    // the earlier state's.
    session = await open();
    const tree = (await session.dispatch('projects.tree', {})) as {
      value: { nodes: { id: string; isFolder: boolean }[] };
    };
    const project = tree.value.nodes.find((node) => !node.isFolder)!;
    expect(
      await session.dispatch('tasks.create', { projectId: project.id, title: 'Made after the record' }),
    ).toMatchObject({ ok: true });
    const logged: string[] = [];
    expect(loadFirstScreen({ dataDir: dir, version: 'test', log: (m) => logged.push(m) })).toBeUndefined();
    expect(logged.join('\n')).toMatch(
      /first-screen\.json .*is not served: its cache file .* (changed since|was not closed cleanly)/,
    );
    // A record someone damaged: named, not served.
    writeFileSync(join(dir, 'first-screen.json'), 'not json');
    expect(loadFirstScreen({ dataDir: dir, version: 'test', log: (m) => logged.push(m) })).toBeUndefined();
    expect(logged.at(-1)).toContain(`${join(dir, 'first-screen.json')} is damaged`);
  });
});
