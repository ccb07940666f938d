// Displayed times on the service's clock: the app runs in Asia/Taipei (this file's process and
// Chromium, as on a user's machine), against the goodday profile, which stamps UTC as GoodDay's
// live service does. The account learns the clock from a create's answer; a comment posted a minute ago then
// reads "1 minute ago", and Settings says what was learnt. Choosing local time makes the same
// comment read eight hours old: the choice is what the renderer reads times on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/server/seed/index';
import type { SyncStatus } from '../../src/shared/ipc/sync';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';
import { TaskListPage } from './pages/task-list';

// Before the web host, the services and Chromium start: all of them run in this zone.
const savedTz = process.env.TZ;
process.env.TZ = 'Asia/Taipei';

describe('service clock: displayed times against a service stamping UTC', () => {
  let utc: RunningService;
  beforeAll(async () => {
    // The goodday profile stamps UTC, as GoodDay's live service does; its clock runs a minute
    // behind, so what it stamps now was posted "a minute ago".
    utc = await startService({
      seed: 'empty',
      token: 'utc-token',
      profile: 'goodday',
      clock: () => new Date(Date.now() - 60_000),
    });
  });
  afterAll(async () => {
    await utc?.close();
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });
  const suite = sessionSuite({ viewport: { width: 1280, height: 800 } });

  /** The active account's sync status; undefined while its core is being reopened. */
  const status = async (): Promise<SyncStatus | undefined> => {
    const answer = await suite.app.session.dispatch('sync.status', {});
    return answer.ok ? (answer.value as SyncStatus) : undefined;
  };

  it('learns UTC from a create, and a comment posted a minute ago reads "1 minute ago"', async () => {
    const { app, page, ui } = suite;
    const added = await app.session.dispatch('accounts.add', {
      label: 'UTC service',
      baseUrl: utc.baseUrl,
      token: utc.token,
      userId: utc.users.actingUserId,
    });
    if (!added.ok) throw new Error(added.error.message);
    const id = (added.value as { id: string }).id;
    expect(await app.session.dispatch('accounts.switch', { id })).toMatchObject({ ok: true });
    await page.reload();
    await page.getByTestId('app-info').waitFor();
    // Not learnt yet: a list's stamps fit both readings here, only a fresh one tells.
    const created = await app.session.dispatch('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'Clock probe',
    });
    expect(created).toMatchObject({ ok: true });
    const until = Date.now() + 20_000;
    while ((await status())?.serviceClock !== 'utc') {
      if (Date.now() > until) throw new Error(`the clock was not learnt: ${JSON.stringify(await status())}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const tasks = await fetch(`${utc.baseUrl}/project/${SEED_IDS.workspace}/tasks`, {
      headers: { 'svc-api-token': utc.token },
    });
    const probe = ((await tasks.json()) as { id: string; name: string }[]).find(
      (t) => t.name === 'Clock probe',
    );
    expect(probe).toBeDefined();
    // Bob comments from another client: the service stamps it, in UTC, a minute ago.
    const posted = await fetch(`${utc.baseUrl}/task/${probe!.id}/comment`, {
      method: 'POST',
      headers: { 'svc-api-token': utc.token, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: utc.users.bob, message: 'Looked at it a minute ago' }),
    });
    expect(posted.status).toBe(200);
    // A pull sees the task's new activity, so opening it fetches its messages.
    expect(await app.session.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });

    await ui.openProject('Company Workspace');
    const list = new TaskListPage(page);
    await list.open({ id: probe!.id, name: 'Clock probe' });
    const comment = page.getByTestId('message').filter({ hasText: 'Looked at it a minute ago' });
    await comment.waitFor();
    await expect.poll(() => comment.locator('time').innerText()).toBe('1 minute ago');
    await comment.scrollIntoViewIfNeeded();
    await screenshot(page, 'service-clock-utc-comment');

    await ui.goToSettings();
    const account = page.getByTestId('account').filter({ hasText: 'UTC service' });
    const clock = account.getByTestId('service-clock');
    await expect.poll(() => clock.locator('option:checked').innerText()).toBe('Automatic (learnt: UTC)');
    await screenshot(page, 'service-clock-settings');
  });

  it('a clock chosen in Settings is the one times are read on', async () => {
    const { page, ui } = suite;
    const account = page.getByTestId('account').filter({ hasText: 'UTC service' });
    await account.getByTestId('service-clock').selectOption('local');
    const until = Date.now() + 20_000;
    while ((await status())?.serviceClock !== 'local') {
      if (Date.now() > until) throw new Error('the chosen clock was not applied');
      await new Promise((r) => setTimeout(r, 100));
    }
    await ui.openProject('Company Workspace');
    const list = new TaskListPage(page);
    const row = list.rows.filter({ hasText: 'Clock probe' });
    await row.waitFor();
    await list.open({ id: (await row.getAttribute('data-task-id')) ?? '', name: 'Clock probe' });
    const comment = page.getByTestId('message').filter({ hasText: 'Looked at it a minute ago' });
    await comment.waitFor();
    // UTC stamps read as Taipei time lie eight hours back.
    await expect.poll(() => comment.locator('time').innerText()).toBe('8 h ago');
  });
});
