/// <reference lib="dom" />
// Notices per kind (Settings): a kind turned off raises no toast, the others still do, and the
// choice is kept by the shell (the web host with its accounts session, on a remote account).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/shared/ipc/settings';
import { createServiceClient } from '../../src/main/core/api/client';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';
import { eventually } from './support/wait';

describe('notices per kind', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ seed: 'demo', token: 'team-token' });
  });
  afterAll(async () => {
    await service?.close();
  });
  const suite = sessionSuite({
    viewport: { width: 1280, height: 860 },
    configure({ settings, secrets }) {
      settings.write({
        ...DEFAULT_SETTINGS,
        accounts: [
          {
            id: 'team',
            kind: 'remote',
            label: 'Team service',
            baseUrl: service.baseUrl,
            tokenHeader: 'svc-api-token',
            userId: service.users.actingUserId,
          },
        ],
        activeAccountId: 'team',
      });
      secrets.set('team', 'team-token');
    },
  });

  it('raises no toast for a kind turned off, still one for the others, and keeps the choice', async () => {
    const { app, page, ui } = suite;
    const api = createServiceClient({ baseUrl: service.baseUrl, token: service.token });
    const { actingUserId: me, bob, cleo } = service.users;
    await ui.treeItem('Company Workspace').waitFor({ timeout: 30_000 });
    await ui.goToSettings();
    await page.getByTestId('notice-comment-toast').setChecked(false);
    await eventually(
      async () => app.session.dispatch('settings.get', {}),
      (answer) =>
        answer.ok && !(answer.value as typeof DEFAULT_SETTINGS.preferences).notifications.comment.toast,
    );
    await page.reload();
    await ui.goToSettings();
    expect(await page.getByTestId('notice-comment-toast').isChecked()).toBe(false);
    expect(await page.getByTestId('notice-assigned-toast').isChecked()).toBe(true);
    await screenshot(page, 'notices-settings');

    const [mine] = await api.assignedTasks(me);
    await api.comment(mine!.id, { userId: bob, message: 'A comment nobody asked to be told of' });
    const other = (await api.projectTasks('g7-p2')).find(
      (t) => t.assignedToUserId !== me && t.actionRequiredUserId !== me,
    )!;
    await api.updateTask(other.id, { userId: cleo, assignedToUserId: me });
    await page.getByTestId('sync-now').click();
    await page
      .getByTestId('toast')
      .filter({ hasText: `Assigned to you: “${other.name}”` })
      .waitFor();
    // The comment came in the same pull (the Updates count has it) but raised no toast.
    await eventually(
      async () => page.getByTestId('count-updates').textContent(),
      (text) => Number(text) >= 2,
    );
    expect(await page.getByTestId('toast').filter({ hasText: 'New comment' }).count()).toBe(0);
  });
});
