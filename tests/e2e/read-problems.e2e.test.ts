// What the service answered that could not be read is said, not hidden: the status bar names it,
// Settings lists it with the field and why, and a project part the service does not offer shows
// as unavailable. The service is reached through a small proxy that spoils some answers.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';
import { ProjectOverviewPage } from './pages/project-overview';

/**
 * A proxy in front of `target` that nulls the status of the first three tasks of every project
 * task list and answers 404 for project members, as a service might that we cannot read fully.
 */
async function spoilingProxy(target: string): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').replace(/^\/2\.0/, '');
        if (/^\/project\/[^/]+\/users$/.test(path)) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end('{"errorMessage":"Not found"}');
          return;
        }
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(
            (e): e is [string, string] =>
              typeof e[1] === 'string' && e[0] !== 'host' && e[0] !== 'content-length',
          ),
        );
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const upstream = await fetch(`${target}${path}`, {
          method: req.method ?? 'GET',
          headers,
          ...(body && req.method !== 'GET' ? { body } : {}),
        });
        let text = await upstream.text();
        if (upstream.ok && req.method === 'GET' && /^\/project\/[^/]+\/tasks/.test(path)) {
          const tasks = JSON.parse(text) as Record<string, unknown>[];
          text = JSON.stringify(tasks.map((t, i) => (i < 3 ? { ...t, status: null } : t)));
        }
        res.writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'text/plain',
        });
        res.end(text);
      })();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const port = (server.address() as { port: number }).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/2.0`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe('read problems, shown', () => {
  let svc: RunningService;
  let proxy: Awaited<ReturnType<typeof spoilingProxy>>;
  beforeAll(async () => {
    svc = await startService({ seed: 'demo', token: 'spoilt-service-token' });
    proxy = await spoilingProxy(svc.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await svc?.close();
  });
  const suite = sessionSuite({ viewport: { width: 1280, height: 800 } });

  it('the status bar names what could not be read, Settings says which field and why', async () => {
    const { app, page, ui } = suite;
    const added = await app.session.dispatch('accounts.add', {
      label: 'Spoilt',
      baseUrl: proxy.baseUrl,
      token: svc.token,
      userId: svc.users.actingUserId,
    });
    expect(added.ok).toBe(true);
    const id = added.ok ? (added.value as { id: string }).id : '';
    expect(await app.session.dispatch('accounts.switch', { id })).toMatchObject({ ok: true });
    const problems = ui.statusBar.getByTestId('read-problems');
    await problems.waitFor({ timeout: 60_000 });
    await expect
      .poll(() => problems.innerText())
      .toMatch(/^3 tasks of folder "Company Workspace" \(of \d+\) could not be read/);
    // What could be read is there: the tree and the other tasks.
    await ui.treeItem('Company Workspace').waitFor();
    await screenshot(page, 'read-problems-status-bar');

    await problems.click();
    await ui.waitForTitle('Settings');
    const listed = page.getByTestId('read-problem').first();
    await listed.waitFor();
    await expect
      .poll(() => listed.getByTestId('read-problem-why').innerText())
      .toMatch(/^Field status of item \S+ — Invalid input: expected object, received null$/);
    await screenshot(page, 'read-problems-settings');
  });

  it('a project whose members the service does not offer shows them as unavailable', async () => {
    const { page, ui } = suite;
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Support desk 1');
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    const unavailable = page.getByTestId('not-offered-members');
    await unavailable.waitFor();
    await expect.poll(() => unavailable.innerText()).toContain('does not offer');
    // The project itself is there, with its history.
    await overview.history.waitFor();
    await screenshot(page, 'read-problems-members-unavailable');
  });
});
