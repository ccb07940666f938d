import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';
import { invoke } from './support/page-bridge';
const ONLY_ON_SECOND = 'Only on the second service';

async function projectNames(page: Page): Promise<string[]> {
  const synced = await invoke(page, 'sync.now', { wait: true });
  expect(synced).toMatchObject({ ok: true, value: { lastError: null } });
  const tree = await invoke(page, 'projects.tree', {});
  expect(tree.ok).toBe(true);
  return (tree.value as { nodes: { name: string }[] }).nodes.map((node) => node.name);
}

describe('accounts through the web host', () => {
  let second: RunningService;

  beforeAll(async () => {
    second = await startService({ seed: 'demo', token: 'second-service-token' });
    // Something only the second service has, to tell its data from the local workspace's.
    const created = await fetch(`${second.baseUrl}/projects/new-folder`, {
      method: 'POST',
      headers: { 'svc-api-token': second.token, 'content-type': 'application/json' },
      body: JSON.stringify({ createdByUserId: second.users.actingUserId, name: ONLY_ON_SECOND }),
    });
    expect(created.status).toBe(200);
  });
  afterAll(async () => {
    await second?.close();
  });
  // Each test opens its own page and drives the bridge contract from it.
  const suite = sessionSuite({ page: false });

  it('opens on the local workspace with no setup', async () => {
    const { app, browser } = suite;
    const page = await browser.newPage();
    await page.goto(app.host.url);
    await page.getByTestId('app-info').waitFor();
    const state = await invoke(page, 'accounts.list', {});
    expect(state).toEqual({
      ok: true,
      value: {
        accounts: [{ id: 'local', kind: 'local', label: 'Local workspace', userId: 'u-ada' }],
        activeId: 'local',
      },
    });
    expect(app.session.activeConnection()?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2\.0$/);
    // The demo organization came from the bundled service into this account's cache.
    const names = await projectNames(page);
    expect(names.length).toBeGreaterThan(5);
    expect(names).not.toContain(ONLY_ON_SECOND);
    await screenshot(page, 'accounts-local-workspace');
    await page.close();
  });

  it('refuses a remote account whose token the service rejects, and saves nothing', async () => {
    const { app, browser } = suite;
    const page = await browser.newPage();
    await page.goto(app.host.url);
    const result = await invoke(page, 'accounts.add', {
      label: 'Wrong token',
      baseUrl: second.baseUrl,
      token: 'not-the-token',
      userId: second.users.actingUserId,
    });
    expect(result).toMatchObject({ ok: false, error: { type: 'unauthorized', field: 'token' } });
    expect(await invoke(page, 'accounts.list', {})).toMatchObject({ value: { accounts: [{ id: 'local' }] } });
    await page.close();
  });

  it('adds a remote account pointing at a second service and switches to it', async () => {
    const { app, browser } = suite;
    const page = await browser.newPage();
    await page.goto(app.host.url);
    await page.getByTestId('app-info').waitFor();
    const added = await invoke(page, 'accounts.add', {
      label: 'Second service',
      baseUrl: second.baseUrl,
      token: second.token,
      tokenHeader: 'gd-api-token',
      userId: second.users.actingUserId,
    });
    expect(added).toMatchObject({
      ok: true,
      value: { kind: 'remote', label: 'Second service', baseUrl: second.baseUrl },
    });
    const id = (added.value as { id: string }).id;
    expect(JSON.stringify(added)).not.toContain(second.token);

    const switched = await invoke(page, 'accounts.switch', { id });
    expect(switched).toMatchObject({ ok: true, value: { activeId: id } });
    expect(app.session.activeConnection()).toEqual({
      baseUrl: second.baseUrl,
      token: second.token,
      tokenHeader: 'gd-api-token',
      userId: second.users.actingUserId,
    });
    // The core now serves the second service's data.
    expect(await projectNames(page)).toContain(ONLY_ON_SECOND);
    await page.reload();
    await page.getByTestId('app-info').waitFor();
    await screenshot(page, 'accounts-switched-to-remote');

    // Back to the local workspace: the bundled service starts again on its kept data.
    expect(await invoke(page, 'accounts.switch', { id: 'local' })).toMatchObject({
      ok: true,
      value: { activeId: 'local' },
    });
    expect(app.session.activeConnection()?.userId).toBe('u-ada');
    await page.close();
  });

  it('signs out of the remote account after confirmation and removes its data', async () => {
    const { app, browser } = suite;
    const page = await browser.newPage();
    await page.goto(app.host.url);
    const listed = await invoke(page, 'accounts.list', {});
    const remote = (listed.value as { accounts: { id: string; kind: string }[] }).accounts.find(
      (a) => a.kind === 'remote',
    );
    expect(remote).toBeDefined();
    const id = remote?.id ?? '';
    const refused = await invoke(page, 'accounts.remove', { id });
    expect(refused).toMatchObject({ ok: false, error: { type: 'conflict', field: 'confirmed' } });
    const removed = await invoke(page, 'accounts.remove', { id, confirmed: true });
    expect(removed).toEqual({
      ok: true,
      value: {
        accounts: [{ id: 'local', kind: 'local', label: 'Local workspace', userId: 'u-ada' }],
        activeId: 'local',
      },
    });
    expect(existsSync(join(app.dataDir, 'accounts', id))).toBe(false);
    expect(readFileSync(join(app.dataDir, 'secrets.json'), 'utf8')).not.toContain(second.token);
    await page.close();
  });
});
