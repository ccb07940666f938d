// `npm run web` as a user runs it: the bundle `out/web/web.mjs` started as a process, its core on
// a worker thread (src/main/web-core.ts) that loads while the page does. Across two starts: an
// account added and switched to, its My Work read from the cache at the next start with the
// service unreachable, and a task created at once after that start sent exactly once when the
// service is back.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startService, type RunningService } from '../support/service';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { launchBrowser, screenshot } from './support/browser';
import { invoke } from './support/page-bridge';

const ROOT = join(import.meta.dirname, '..', '..');

interface Host {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(): Promise<number | null>;
}

/** Starts the bundle on `dataDir` and resolves once its banner says the workspace is open. */
function startHost(dataDir: string): Promise<Host> {
  const child = spawn(process.execPath, [join(ROOT, 'out', 'web', 'web.mjs'), '--data', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      const url = /running at (\S+)/.exec(out)?.[1];
      if (url && out.includes('Ctrl+C stops it'))
        resolve({
          child,
          url,
          output: () => out,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
    });
    void exited.then((code) => reject(new Error(`the web host exited with ${code}: ${out}`)));
  });
}

describe('npm run web from its bundle, the core on a worker thread', () => {
  let service: RunningService;
  let proxy: FaultProxy;
  let browser: Browser;
  let dataDir: string;
  const hosts: Host[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--web'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    service = await startService({ seed: 'demo' });
    // The account reaches the service through a proxy, which can make it unreachable.
    proxy = await startFaultProxy({ target: service.baseUrl });
    browser = await launchBrowser();
    dataDir = mkdtempSync(join(tmpdir(), 'workdesk-web-start-'));
  }, 120_000);
  afterAll(async () => {
    for (const host of hosts) if (host.child.exitCode === null) await host.stop();
    await browser?.close();
    await proxy?.close();
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function open(host: Host): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Sidebar' }).waitFor({ timeout: 60_000 });
    return page;
  }

  const rowNames = (page: Page) => page.getByTestId('inbox-row').allInnerTexts();

  it('switches to an added account, shows its My Work from the cache after a restart offline, and sends a change made at once exactly once', async () => {
    // First start: no settings, so the local workspace (its service started by the core's thread).
    const first = await startHost(dataDir);
    hosts.push(first);
    let page = await open(first);
    expect(await invoke(page, 'accounts.list', {})).toMatchObject({ ok: true, value: { activeId: 'local' } });
    const added = await invoke(page, 'accounts.add', {
      label: 'Team service',
      baseUrl: proxy.baseUrl,
      token: service.token,
      userId: service.users.actingUserId,
    });
    expect(added).toMatchObject({ ok: true });
    const id = (added.value as { id: string }).id;
    expect(await invoke(page, 'accounts.switch', { id })).toMatchObject({
      ok: true,
      value: { activeId: id },
    });
    expect(await invoke(page, 'sync.now', { wait: true })).toMatchObject({
      ok: true,
      value: { lastError: null },
    });
    const inbox = await invoke(page, 'inbox.list', {});
    expect(inbox.ok).toBe(true);
    const cached = (inbox.value as { rows: { name: string; projectId: string }[] }).rows;
    expect(cached.length).toBeGreaterThan(0);
    await page.close();
    expect(await first.stop()).toBe(0);

    // Second start, the service unreachable: the added account opens, its rows from the cache.
    // Refused before it connects (no network): a request dropped once it reached the proxy could
    // have been applied, and the outbox then waits two request timeouts before looking it up.
    await proxy.unplug();
    const second = await startHost(dataDir);
    hosts.push(second);
    page = await open(second);
    await page.getByTestId('nav-action-required').click();
    await expect
      .poll(() => rowNames(page), { timeout: 30_000 })
      .toContainEqual(expect.stringContaining(cached[0]!.name));
    // Every row shown is one the cache held.
    for (const text of (await rowNames(page)).slice(0, 10))
      expect(
        cached.some((row) => text.includes(row.name)),
        text,
      ).toBe(true);
    await screenshot(page, 'web-entry-start-offline-from-cache');

    // At once, still offline: a new task waits in the outbox, and is sent once the service is back.
    const title = `Made at once after the start ${Date.now()}`;
    const made = await invoke(page, 'tasks.create', { projectId: cached[0]!.projectId, title });
    expect(made).toMatchObject({ ok: true });
    await proxy.plugIn();
    const onService = async (): Promise<number> => {
      const res = await fetch(`${service.baseUrl}/project/${cached[0]!.projectId}/tasks`, {
        headers: { 'svc-api-token': service.token },
      });
      const tasks = (await res.json()) as { name?: string; title?: string }[];
      return tasks.filter((t) => (t.name ?? t.title) === title).length;
    };
    await expect.poll(onService, { timeout: 30_000 }).toBe(1);
    // A pull and another look later: still one.
    expect(await invoke(page, 'sync.now', { wait: true })).toMatchObject({
      ok: true,
      value: { lastError: null },
    });
    await expect
      .poll(() => invoke(page, 'outbox.status', {}))
      .toMatchObject({ ok: true, value: { pending: 0 } });
    expect(await onService()).toBe(1);
    await page.close();
    expect(await second.stop()).toBe(0);
    expect(second.output()).not.toMatch(/core stopped|Could not open/);
  });
  it("shows My Work's rows from the first-screen record at the next start, and waits for the core past a damaged or out-of-date one, saying so", async () => {
    // A data folder of its own, on the local workspace: the first start syncs it into the cache,
    // and its close writes the record.
    const folder = mkdtempSync(join(tmpdir(), 'workdesk-first-screen-'));
    const record = join(folder, 'first-screen.json');
    try {
      const first = await startHost(folder);
      hosts.push(first);
      let page = await open(first);
      expect(await invoke(page, 'sync.now', { wait: true })).toMatchObject({ ok: true });
      const inbox = await invoke(page, 'inbox.list', {});
      const cached = (inbox.value as { rows: { name: string }[] }).rows;
      expect(cached.length).toBeGreaterThan(0);
      await page.close();
      expect(await first.stop()).toBe(0);
      expect(first.output()).toContain(`First screen: no record at ${record}`);

      const showsTheCache = async (host: Host, shot: string): Promise<Page> => {
        const shown = await open(host);
        await shown.getByTestId('nav-action-required').click();
        await expect
          .poll(() => rowNames(shown), { timeout: 30_000 })
          .toContainEqual(expect.stringContaining(cached[0]!.name));
        for (const text of (await rowNames(shown)).slice(0, 10))
          expect(
            cached.some((row) => text.includes(row.name)),
            text,
          ).toBe(true);
        await screenshot(shown, shot);
        return shown;
      };

      // Served: the host says so, and the window shows the cache's rows.
      const second = await startHost(folder);
      hosts.push(second);
      page = await showsTheCache(second, 'web-entry-start-first-screen');
      expect(second.output()).toContain(`First screen: the window's first reads are answered from ${record}`);
      // A change, then the host ended without closing (a crash): the record is of the state before.
      const tree = await invoke(page, 'projects.tree', {});
      const project = (tree.value as { nodes: { id: string; isFolder: boolean }[] }).nodes.find(
        (n) => !n.isFolder,
      )!;
      expect(
        await invoke(page, 'tasks.create', { projectId: project.id, title: 'After the record' }),
      ).toMatchObject({ ok: true });
      await page.close();
      second.child.kill('SIGKILL');
      await new Promise((resolve) => second.child.once('exit', resolve));

      const third = await startHost(folder);
      hosts.push(third);
      page = await showsTheCache(third, 'web-entry-start-first-screen-out-of-date');
      expect(third.output()).toMatch(
        /first-screen\.json \(written .*\) is not served: its cache file .* (changed since|was not closed cleanly)/,
      );
      await page.close();
      expect(await third.stop()).toBe(0);

      // Damaged: named, and the window waits for the core.
      writeFileSync(record, '{"format": 1, "answers": [');
      const fourth = await startHost(folder);
      hosts.push(fourth);
      page = await showsTheCache(fourth, 'web-entry-start-first-screen-damaged');
      expect(fourth.output()).toContain(`First screen: ${record} is damaged`);
      await page.close();
      expect(await fourth.stop()).toBe(0);
      expect(fourth.output()).not.toMatch(/core stopped|Could not open/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
