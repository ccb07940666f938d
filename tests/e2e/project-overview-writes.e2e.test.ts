/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { eventually } from './support/wait';
import { AppPage } from './pages/app';
import { ProjectOverviewPage } from './pages/project-overview';
import { choose } from './pages/picker';

interface ServiceProject {
  id: string;
  name: string;
  description: string;
  statusComments: string;
  priority: number;
  progress: number | null;
  startDate: string | null;
  systemStatus: number;
  health?: number | null;
  ownerUserId?: string | null;
  customFieldsData: Record<string, unknown>;
}
interface ServiceMember {
  id: string;
  name: string;
  access: string;
}

/** The demo's "Support desk 1" (generated id g7-p1): Ada, Bob, Cleo and Dan are its members. */
const PROJECT = { id: 'g7-p1', name: 'Support desk 1' };

describe('project overview writes: fields, archive and re-open, refusals, members', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;
  let overview: ProjectOverviewPage;

  const project = (): Promise<ServiceProject> => app.api<ServiceProject>(`/project/${PROJECT.id}`);
  const members = (): Promise<ServiceMember[]> => app.api<ServiceMember[]>(`/project/${PROJECT.id}/users`);

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    ui = new AppPage(page);
    overview = new ProjectOverviewPage(page);
    await ui.open(app.host.url);
    await ui.openDemoProject(PROJECT.name);
    await overview.open();
    // The first opening fetches members, documents and history; edit once they are in.
    await overview.members.first().waitFor();
    await overview.history.waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('sends several fields, each of which the service then holds', async () => {
    const before = await project();
    await overview.field('project-description').fill('Answers customer questions within a day.');
    await overview.field('project-description').press('Tab');
    await overview.field('project-status-comments').fill('On track after the queue clean-up.');
    await overview.field('project-status-comments').press('Tab');
    const nextPriority = before.priority === 7 ? '8' : '7';
    await choose(page, overview.field('project-priority'), nextPriority);
    await overview.field('project-progress').fill('42');
    await overview.field('project-progress').press('Tab');
    await choose(page, overview.field('project-health'), 'Amber');
    await overview.field('project-start').fill('2026-10-05');

    const after = await eventually(project, (p) => p.startDate === '2026-10-05' && p.progress === 42);
    expect(after.description).toBe('Answers customer questions within a day.');
    expect(after.statusComments).toBe('On track after the queue clean-up.');
    expect(after.priority).toBe(Number(nextPriority));
    expect(after.health).toBe(1);
    await ui.waitForPendingCount(0);
    await screenshot(page, 'project-overview-fields-saved');
  });

  it('archives after asking, and re-opens', async () => {
    await overview.field('project-archive').click();
    const confirm = page.locator('dialog[open][data-testid="confirm-dialog"]');
    await confirm.waitFor();
    await confirm.getByTestId('confirm').click();
    await eventually(project, (p) => p.systemStatus === 5);
    await page.getByTestId('project-archive').filter({ hasText: 'Re-open' }).waitFor();
    await screenshot(page, 'project-overview-archived');
    await overview.field('project-archive').click();
    await eventually(project, (p) => p.systemStatus === 2);
    await page.getByTestId('project-archive').filter({ hasText: 'Archive' }).waitFor();
  });

  it('shows the service’s refusal of an owner who is not a member, and the owner stays', async () => {
    const before = await project();
    await choose(page, overview.field('project-owner'), 'Gita Guest');
    const refusal = page.getByTestId('project-service-refusal');
    await refusal.waitFor({ timeout: 30_000 });
    await expect.poll(() => refusal.innerText()).toMatch(/member/i);
    await screenshot(page, 'project-overview-owner-refused');
    expect((await project()).ownerUserId).toBe(before.ownerUserId);
    // Discarding the refused change clears the notice.
    await refusal.getByRole('button', { name: 'Discard' }).click();
    await refusal.waitFor({ state: 'detached' });
  });

  it('adds a member, changes an access, makes one read-only and removes one after the warnings', async () => {
    const users = app.service!.users;
    // Remove Dan (not the owner) after the warning about his items.
    const owner = (await project()).ownerUserId;
    const [leaving, readOnly, raised] = [users.dan, users.bob, users.actingUserId, users.cleo].filter(
      (id) => id !== owner,
    );
    if (!leaving || !readOnly || !raised) throw new Error('the demo project has too few members');

    await page
      .locator(`[data-testid="member-row"][data-user="${leaving}"] [data-testid="member-remove"]`)
      .click();
    const confirm = page.locator('dialog[open][data-testid="confirm-dialog"]');
    await confirm.waitFor();
    await expect.poll(() => confirm.innerText()).toMatch(/go to the project owner/);
    await screenshot(page, 'project-overview-member-remove-warning');
    await confirm.getByTestId('confirm').click();
    await eventually(members, (list) => !list.some((m) => m.id === leaving));

    // Add him back with Limited access.
    await choose(page, page.getByTestId('member-add-user'), 'Dan Whitfield');
    await page.getByTestId('member-add-access').selectOption('1');
    await page.getByTestId('member-add').click();
    await eventually(members, (list) => list.some((m) => m.id === leaving && m.access === 'Limited'));

    // Read-only asks first, then the service holds it.
    await page.locator(`[data-testid="member-row"][data-user="${readOnly}"] select`).selectOption('-10');
    await confirm.waitFor();
    await expect.poll(() => confirm.innerText()).toMatch(/reassigned to the project owner/);
    await confirm.getByTestId('confirm').click();
    await eventually(members, (list) => list.some((m) => m.id === readOnly && m.access === 'Read only'));

    await page.locator(`[data-testid="member-row"][data-user="${raised}"] select`).selectOption('3');
    await eventually(members, (list) => list.some((m) => m.id === raised && m.access === 'Full'));
    await page
      .locator(`[data-testid="member-row"][data-user="${readOnly}"]`)
      .getByText('Read only', { exact: true })
      .first()
      .waitFor();
    await ui.waitForPendingCount(0);
    await page.getByTestId('project-members').scrollIntoViewIfNeeded();
    await screenshot(page, 'project-overview-members-changed');
  });

  it('edits the project’s custom fields with the task’s editors, and refuses text that is not a number', async () => {
    const fields = page.getByTestId('project-custom-fields');
    await fields.scrollIntoViewIfNeeded();
    await fields.getByTestId('cf-Customer reference').locator('input').fill('ACME-7');
    await fields.getByTestId('cf-Customer reference').locator('input').press('Tab');
    await fields.getByTestId('cf-Billable').locator('input').check();
    await choose(page, fields.getByTestId('cf-Impact').getByRole('button').first(), 'High');
    await fields.getByTestId('cf-RAG').getByRole('radio', { name: 'Green' }).click();
    await fields.getByTestId('cf-Budget').locator('input').fill('1200.5');
    await fields.getByTestId('cf-Budget').locator('input').press('Tab');
    await fields.getByTestId('cf-Platforms').getByLabel('Mobile').check();

    const units = fields.getByTestId('cf-Units').locator('input');
    await units.fill('twelve');
    await units.press('Tab');
    await expect.poll(() => fields.getByTestId('cf-Units').getByRole('alert').innerText()).toMatch(/^Units /);

    const ids = (name: string): string => `cf-${name}`;
    const after = await eventually(
      project,
      (p) =>
        p.customFieldsData[ids('multiSelect')] !== undefined &&
        p.customFieldsData[ids('currency')] !== undefined,
    );
    expect(after.customFieldsData[ids('text')]).toBe('ACME-7');
    expect(after.customFieldsData[ids('checkbox')]).toBe(true);
    expect(after.customFieldsData[ids('dropdown')]).toBe(3);
    expect(after.customFieldsData[ids('rag')]).toBe(2);
    expect(after.customFieldsData[ids('currency')]).toBe(1200.5);
    expect(after.customFieldsData[ids('multiSelect')]).toEqual([3]);
    expect(after.customFieldsData[ids('number')]).toBeUndefined();
    await screenshot(page, 'project-overview-custom-fields');
  });
});
