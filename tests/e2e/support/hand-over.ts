import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { RunningApp } from './web-host';

/**
 * Another user (Bob) replies on `task` on the service and hands it to the acting user, and the app
 * syncs. Answers the action-required notice the app is to raise for it (not waited for).
 */
export async function handOver(
  app: RunningApp,
  page: Page,
  task: { id: string; name: string },
  message: string,
): Promise<Locator> {
  const users = app.service?.users;
  if (!users) throw new Error('handOver: the app runs without a service');
  await app.api(`/task/${task.id}/reply`, {
    method: 'POST',
    body: { userId: users.bob, actionRequiredUsedId: users.actingUserId, message },
  });
  expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
  return page.getByTestId('toast').filter({ hasText: `Your action is required: “${task.name}”` });
}
