// The window when its connection to the core is lost (the socket drops; in web mode the host
// exits with its core, or runs again under another secret and port, which this page never
// reaches again): the status bar says so, once, and whether the host is gone or was started
// again; the project tree, the task list and the open task keep what they show without a note
// each (the status bar's message is for all of them), and if the connection comes back at the
// same address they read again by themselves, showing what changed meanwhile without a click.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { routeBridge, type BridgeCut } from './support/bridge-cut';
import { AppPage } from './pages/app';
import { TaskDetailPage } from './pages/task-detail';
import { CrmPage } from './pages/crm';

describe('the window while its connection to the core is lost, and after', () => {
  const suite = appSuite({ service: { seed: 'demo' }, page: false });
  let page: Page;
  let ui: AppPage;
  let bridge: BridgeCut;

  beforeAll(async () => {
    page = await suite.browser.newPage({ viewport: { width: 1280, height: 760 } });
    bridge = await routeBridge(page);
    ui = new AppPage(page);
    await ui.open(suite.app.host.url);
  });
  afterEach(() => {
    expect(ui.errors).toEqual([]);
  });

  it('says so once, keeps the tree, the task list and the open task, and reads them again by itself once back', async () => {
    const { app } = suite;
    const userId = app.service?.users.actingUserId;
    const detail = new TaskDetailPage(page);
    const { list, task } = await ui.openBeside('Support desk 1', 0);
    await detail.waitFor(task.name);
    const taskId = task.id;
    const projects = await app.api<{ id: string; name: string }[]>('/projects');
    const other = projects.find((p) => p.name === 'Support desk 2');
    if (!other) throw new Error('the demo seed has the project "Support desk 2"');

    // A sync's change makes the tree, the list and the open task read again; the connection is
    // lost while those reads are on their way, so all three fail with what they show on screen.
    const reads = ['projects.tree', 'tasks.list', 'tasks.detail'].map((channel) => bridge.hold(channel));
    await app.api(`/task/${taskId}/update`, { method: 'PUT', body: { userId, title: 'Changed once' } });
    expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await Promise.all(reads);
    await bridge.cut({ host: 'gone' });

    // Once a retry is refused and the page's own address answers nothing, the status bar says
    // the host is gone (no re-read promised), and shows no sync running.
    const connection = page.locator('[data-testid="connection"][data-state="core-lost"][data-host="gone"]');
    await connection.waitFor();
    expect(await connection.innerText()).toBe(
      'Workdesk is not running: start it again and open the address it prints',
    );
    // No re-read is promised: this page never reaches a host started again.
    expect(await page.getByTestId('core-lost-note').innerText()).toBe('What is shown is as last read');
    expect(await page.getByTestId('sync-progress').count()).toBe(0);

    // The tree, the list and the task keep what they show, with no note of their own: the lost
    // connection is said once, in the status bar (their reads failed for that alone).
    expect(await ui.treeItem('Support desk 2').isVisible()).toBe(true);
    expect(await list.rows.count()).toBeGreaterThan(0);
    expect(await detail.title()).toBe(task.name);
    expect(await page.getByText('Could not read the tasks', { exact: true }).count()).toBe(0);
    for (const note of ['tree-read-again', 'tasks-read-again', 'task-read-error'])
      expect(await page.getByTestId(note).count(), note).toBe(0);
    expect(await page.getByRole('alert').allInnerTexts()).toEqual([]);
    // A screen reader hears it once too, from the status bar's live region.
    await expect
      .poll(() => page.getByTestId('sync-announcer').textContent())
      .toBe('Workdesk is not running: start it again and open the address it prints');
    await screenshot(page, 'reconnect-lost');

    // Meanwhile the service changes, and the core (its own process) syncs it into the cache;
    // the page hears nothing of it while its connection is lost.
    const renamedTask = 'Renamed while the window was away';
    const renamedProject = 'Support desk 2 (renamed meanwhile)';
    await app.api(`/task/${taskId}/update`, { method: 'PUT', body: { userId, title: renamedTask } });
    await app.api(`/project/${other.id}`, { method: 'PUT', body: { userId, name: renamedProject } });
    expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });

    // Back: no click, the views read again by themselves. Until their reads answer they still
    // hold the failures of the loss, which were the connection's alone: no note of theirs is
    // inserted (a screen reader would announce each alert, no longer true) at any moment in
    // between, which the page itself records as its document changes.
    await page.evaluate(() => {
      const seen = new Set<string>();
      (window as unknown as { alertsSeen: Set<string> }).alertsSeen = seen;
      new MutationObserver(() => {
        for (const alert of document.querySelectorAll<HTMLElement>('[role="alert"]')) {
          const text = alert.innerText.trim();
          if (text) seen.add(`${alert.dataset.testid ?? ''}: ${text}`);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await bridge.restore();
    await ui.treeItem(renamedProject).waitFor();
    await list.row({ id: taskId, name: renamedTask }).getByText(renamedTask).waitFor();
    await detail.waitFor(renamedTask);
    await page.locator('[data-testid="connection"][data-state="online"]').waitFor();
    expect(await page.getByRole('alert').allInnerTexts()).toEqual([]);
    const alertsSeen = await page.evaluate(() => [
      ...(window as unknown as { alertsSeen: Set<string> }).alertsSeen,
    ]);
    expect(alertsSeen).toEqual([]);
    await screenshot(page, 'reconnect-back');
  });

  it('keeps the CRM list, says the host was started again, and reads the list again once back', async () => {
    const { app } = suite;
    await bridge.restore();
    const crm = new CrmPage(page);
    const contacts = await app.api<{ id: string; firstName: string; lastName: string }[]>('/crm/contacts');
    const contact = contacts[0];
    if (!contact) throw new Error('the demo seed has contacts');
    await crm.openContacts();
    await crm.search(contact.lastName);
    await crm.rows.first().waitFor();
    const body = (firstName: string) => ({
      method: 'PUT',
      body: { updatedByUserId: app.service?.users.actingUserId, firstName },
    });

    const reading = bridge.hold('crm.contacts');
    await app.api(`/crm/contact/${contact.id}`, body('Changed'));
    expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await reading;
    await bridge.cut();

    // The page's address answers but the socket is still refused: a host started again.
    const connection = page.locator('[data-testid="connection"][data-host="restarted"]');
    await connection.waitFor();
    expect(await connection.innerText()).toBe('Workdesk was started again: open the new address it printed');

    // The list keeps its rows; the status bar alone says the connection is lost.
    expect(await crm.rows.count()).toBeGreaterThan(0);
    expect(await page.getByTestId('crm-list-read-again').count()).toBe(0);
    await screenshot(page, 'reconnect-lost-crm');

    const renamed = 'Renamedmeanwhile';
    await app.api(`/crm/contact/${contact.id}`, body(renamed));
    expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await bridge.restore();
    await crm.rows
      .filter({ hasText: `${renamed} ${contact.lastName}` })
      .first()
      .waitFor();
    await page.locator('[data-testid="connection"][data-state="online"]').waitFor();
    await screenshot(page, 'reconnect-back-crm');
  });
});
