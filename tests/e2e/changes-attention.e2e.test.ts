// A change the service applied whose answer cannot be stored in the cache: after a few tries it
// needs attention. The status bar counts it, Changes shows it first with its error, and "Reload
// from the service" settles it with the service's version. The fold is made to fail by a trigger
// in the cache file (a cache constraint the answer runs into), added by the test.
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { ChangesPage } from './pages/changes';

interface ServiceTask {
  id: string;
  name: string;
}

describe('the Changes view: a change that needs attention', () => {
  const suite = appSuite({ service: { seed: 'demo' } });

  it('shows it with its error and the actions; "Try again" and "Reload from the service" settle it', async () => {
    const { app, page, ui } = suite;
    const [target, other] = await app.api<ServiceTask[]>('/project/g7-p5/tasks');
    const cache = app.core.engine!.cache;
    // Every acknowledged task update fails to be settled in the cache (a reload, from stuck, can).
    cache.db.exec(`CREATE TRIGGER settle_fails BEFORE UPDATE OF state ON outbox_entries
      WHEN OLD.state = 'in_flight' AND NEW.state = 'done' AND OLD.kind = 'task.update'
      BEGIN SELECT RAISE(ABORT, 'injected: the cache refused the answer'); END`);
    for (const [task, title] of [
      [target!, 'Renamed here'],
      [other!, 'Renamed here too'],
    ] as const) {
      const queued = await app.core.dispatch('tasks.update', { taskId: task.id, changes: { title } });
      expect(queued.ok).toBe(true);
    }

    await ui.goToChanges();
    const changes = new ChangesPage(page);
    const stuck = page.locator('[data-testid="change"][data-state="stuck"]');
    await eventually(
      () => stuck.count(),
      (n) => n === 2,
    );
    await expect.poll(() => page.getByTestId('stuck-count').innerText()).toBe('2 changes need attention');
    await expect.poll(() => page.locator('#stuck-heading').innerText()).toMatch(/^Needs attention\s+2$/);
    const mine = changes.entry("'Renamed here'");
    await expect
      .poll(() => mine.innerText())
      .toMatch(
        /Rename to 'Renamed here'[\s\S]*The service applied it, but its answer could not be stored here \(tried \d+ times\): injected: the cache refused the answer/,
      );
    // Its local change stays in view: the service accepted it.
    expect(await app.core.dispatch('tasks.detail', { taskId: target!.id })).toMatchObject({
      ok: true,
      value: { task: { name: 'Renamed here' } },
    });

    // "Copy details" puts what a bug report needs on the clipboard.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await mine.getByRole('button', { name: 'Copy details' }).click();
    await page.getByText('Details of the change copied').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('Kind: task.update');
    expect(copied).toContain(`Item: task:${target!.id}`);
    expect(copied).toContain('Error: fold-failed: injected: the cache refused the answer');
    expect(copied).toContain('"title": "Renamed here"');
    await screenshot(page, 'changes-attention');

    // The cache is repaired: "Try again" stores the other one's answer (the update is resent as
    // it was: the same fields, which the service holds already).
    cache.db.exec('DROP TRIGGER settle_fails');
    await changes.entry("'Renamed here too'").getByRole('button', { name: 'Try again' }).click();
    await eventually(
      () => stuck.count(),
      (n) => n === 1,
    );
    await expect.poll(() => page.getByTestId('stuck-count').innerText()).toBe('1 change needs attention');
    expect(await app.api<ServiceTask>(`/task/${other!.id}`)).toMatchObject({ name: 'Renamed here too' });

    // Someone renames it on the service meanwhile; the reload shows their version.
    await app.api(`/task/${target!.id}/update`, {
      method: 'PUT',
      body: { userId: app.service!.users.bob, title: 'Renamed on the service' },
    });
    await mine.getByRole('button', { name: 'Reload from the service' }).click();
    await changes.entries.first().waitFor({ state: 'detached' });
    await page.getByText('Every change has reached the service').waitFor();
    await page.getByTestId('stuck-count').waitFor({ state: 'detached' });
    expect(await app.core.dispatch('tasks.detail', { taskId: target!.id })).toMatchObject({
      ok: true,
      value: { task: { name: 'Renamed on the service' } },
    });
    await screenshot(page, 'changes-attention-reloaded');
  });
});
