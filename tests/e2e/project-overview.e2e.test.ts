/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { AppPage } from './pages/app';
import { ProjectOverviewPage } from './pages/project-overview';
import { join } from 'node:path';
import { openDatabase } from '../../src/server/db/open';
import { seedDatabase } from '../../src/server/seed/index';
import { appSuite } from './support/suite';
import { PalettePage } from './pages/palette';

interface ServiceEvent {
  id: string;
  name: string;
  eventType: string;
  projectId: string | null;
}
interface ServiceProject {
  id: string;
  name: string;
  status: string;
}
interface ServiceMember {
  id: string;
  name: string;
  access: string;
}
interface ServiceDocument {
  id: string;
  name: string;
}

function around(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return d.toISOString().slice(0, 10);
}

describe('project overview: fields, members, milestones, documents, history, settings', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;
  let overview: ProjectOverviewPage;
  let project: ServiceProject;
  let milestone: ServiceEvent;

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    const events = await app.api<ServiceEvent[]>(
      `/events?startDate=${around(-60)}&endDate=${around(60)}&eventTypes=project-milestone`,
    );
    const found = events.find((event) => event.projectId);
    if (!found?.projectId) throw new Error('the demo seed has no project milestone');
    milestone = found;
    project = await app.api<ServiceProject>(`/project/${found.projectId}`);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    ui = new AppPage(page);
    overview = new ProjectOverviewPage(page);
    await ui.open(app.host.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('opens the overview from the project view with the service’s fields, members and milestones', async () => {
    // The palette reaches any project by name.
    await page.keyboard.press('Control+k');
    await page.getByTestId('palette-input').fill(project.name);
    await page.locator(`[data-testid="palette-item"][data-group="Projects"]`).first().waitFor();
    await page.keyboard.press('Enter');
    await ui.waitForTitle(project.name);
    await overview.open();

    await expect.poll(() => page.getByTestId('project-name').inputValue()).toBe(project.name);
    const members = await app.api<ServiceMember[]>(`/project/${project.id}/users`);
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="member-row"]').length === count,
      members.length,
    );
    const first = members[0];
    if (first) {
      const row = page.locator(`[data-testid="member-row"][data-user="${first.id}"]`);
      await expect.poll(() => row.locator('select option:checked').innerText()).toBe(first.access);
    }
    await overview.milestones.getByText(milestone.name).waitFor();
    await overview.settings.getByText('Task', { exact: true }).first().waitFor();
  });

  it('reads a document in the reader and lists the history', async () => {
    const documents = await app.api<ServiceDocument[]>(`/project/${project.id}/documents`);
    if (documents.length) {
      const doc = documents[0]!;
      await page.getByTestId('document-open').filter({ hasText: doc.name }).first().click();
      await overview.reader.getByTestId('document-content').waitFor();
      const full = await app.api<{ content: string }>(`/document/${doc.id}`);
      // The whole text, as Markdown renders it (the demo's documents are a heading and a
      // paragraph: the heading's "# " is drawn as a heading, not as text).
      expect((await overview.reader.getByTestId('document-content').innerText()).trim()).toBe(
        full.content.replace(/^#+\s*/gm, '').trim(),
      );
      await screenshot(page, 'project-overview-document-reader');
      await page.keyboard.press('Escape');
      await overview.reader.waitFor({ state: 'hidden' });
    }
    await overview.history.waitFor();
    await screenshot(page, 'project-overview-fields');
  });

  it('refuses a bad field plainly, naming it, and changes nothing', async () => {
    const name = page.getByTestId('project-name');
    await name.fill('   ');
    await name.press('Tab');
    const refusal = page.getByTestId('project-refusal');
    await expect.poll(() => refusal.innerText()).toBe('Name: must not be empty');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const progress = page.getByTestId('project-progress');
    await progress.fill('150');
    await progress.press('Tab');
    await expect.poll(() => refusal.innerText()).toBe('Progress: must be a whole number from 0 to 100');
    await screenshot(page, 'project-overview-refusal');
    const after = await app.api<ServiceProject & { progress: number | null }>(`/project/${project.id}`);
    expect(after.name).toBe(project.name);
  });

  it('asks before making a member read-only, saying their items go to the owner', async () => {
    const select = page.getByTestId('member-access').first();
    await select.selectOption('-10');
    const confirm = page.locator('dialog[open][data-testid="confirm-dialog"]');
    await confirm.waitFor();
    await expect.poll(() => confirm.innerText()).toMatch(/reassigned to the project owner/);
    await screenshot(page, 'project-overview-member-readonly-warning');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
  });
});

const NOTES = [
  '## Agenda',
  '',
  'Read the [release plan](https://example.com/plan) first.',
  '',
  '- Scope',
  '- Owners',
  '  1. Ada',
  '',
  'Run `npm test` before a merge:',
  '',
  '```',
  'npm run build',
  '```',
  '',
  '> Ship small.',
  '',
  '| Item | Owner |',
  '| --- | --- |',
  '| Login | Ada |',
  '',
  '<b>not bold</b> <img src="x" onerror="document.title=1">',
  '',
].join('\n');

// A project whose documents hold what a user writes in the service's own app: Markdown, and a
// document with no text.
describe('project overview: Markdown documents, the history, members, beside an open task', () => {
  let projectName = '';
  const suite = appSuite({
    service: {
      seed: 'demo',
      // The API has no document write: the demo's documents of one project get the text a user
      // would write in the service's own app (tests/faults/documents.ts does the same).
      prepare(dataDir) {
        const db = openDatabase(join(dataDir, 'service.sqlite'));
        seedDatabase(db, 'demo', new Date());
        const project = db
          .prepare(
            `SELECT p.id, p.name FROM projects p JOIN projects f ON f.id = p.parent_project_id
             WHERE f.name = 'Website relaunch area 1'
               AND EXISTS (SELECT 1 FROM documents d WHERE d.project_id = p.id)
             ORDER BY p.name LIMIT 1`,
          )
          .get() as { id: string; name: string };
        projectName = project.name;
        const write = db.prepare('UPDATE documents SET content = ? WHERE project_id = ? AND name = ?');
        write.run(NOTES, project.id, 'Meeting notes');
        write.run('', project.id, 'Project brief');
        db.close();
      },
    },
    viewport: { width: 1280, height: 800 },
  });

  async function openDocument(name: string): Promise<Locator> {
    const { page } = suite;
    const overview = new ProjectOverviewPage(page);
    await overview.documents.filter({ hasText: name }).click();
    await overview.reader.getByRole('heading', { name }).waitFor();
    return overview.reader;
  }

  it('shows a document’s Markdown formatted, adds no markup of its own, and opens links elsewhere', async () => {
    const { page, ui } = suite;
    await ui.openDemoProject(projectName);
    await new ProjectOverviewPage(page).open();
    const reader = await openDocument('Meeting notes');
    const content = reader.getByTestId('document-content');
    // Before: the text as it was written ("## Agenda").
    await content.getByRole('heading', { name: 'Agenda', level: 2 }).waitFor();
    await expect.poll(() => content.locator('ul > li').first().innerText()).toBe('Scope');
    await expect.poll(() => content.locator('ol > li').innerText()).toBe('Ada');
    await expect.poll(() => content.locator('p code').innerText()).toBe('npm test');
    expect((await content.locator('pre code').innerText()).trim()).toBe('npm run build');
    await expect.poll(() => content.locator('blockquote').innerText()).toBe('Ship small.');
    await expect.poll(() => content.locator('td').allInnerTexts()).toEqual(['Login', 'Ada']);
    // The document's own HTML is text, not markup.
    await expect.poll(() => content.innerText()).toContain('<b>not bold</b>');
    await expect.poll(() => content.locator('b, img').count()).toBe(0);

    const link = content.getByRole('link', { name: 'release plan' });
    await expect.poll(() => link.getAttribute('target')).toBe('_blank');
    await expect.poll(() => link.getAttribute('rel')).toBe('noopener noreferrer');
    const before = page.url();
    const popup = page.waitForEvent('popup');
    await link.click();
    await (await popup).close();
    expect(page.url()).toBe(before);
    await screenshot(page, 'project-overview-document');

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset['theme'] === 'dark');
    // The code block keeps its own background in the dark theme too.
    const [pre, body] = await Promise.all([
      content.locator('pre').evaluate((el) => getComputedStyle(el).backgroundColor),
      reader.evaluate((el) => getComputedStyle(el).backgroundColor),
    ]);
    expect(pre).not.toBe(body);
    await screenshot(page, 'project-overview-document-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');

    const empty = await openDocument('Project brief');
    await expect
      .poll(() => empty.getByTestId('document-empty').innerText())
      .toBe('This document has no text.');
    await expect.poll(() => empty.getByTestId('document-content').count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('names the project’s first name in its creation entry as the same project', async () => {
    const { page, ui } = suite;
    await ui.openDemoProject(projectName);
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    const created = overview.history.locator('li').filter({ hasText: 'created the project' });
    // Before: "created the project" with the first name alone under it, like another project.
    await expect
      .poll(() => created.locator('p').first().innerText())
      .toMatch(/created the project as ‘Project \d+’$/);
    await expect.poll(() => created.locator('.change').count()).toBe(0);
    await created.scrollIntoViewIfNeeded();
    await screenshot(page, 'project-overview-history');
  });

  it('shows a member’s real access after a Cancel, and says why the owner cannot be removed', async () => {
    const { page, ui } = suite;
    await ui.openDemoProject('Q3 campaign 8');
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    const member = overview.members.filter({ hasNotText: 'Owner' }).first();
    const access = member.getByTestId('member-access');
    const before = await access.inputValue();
    await access.selectOption({ label: 'Read only' });
    const confirm = page.getByRole('dialog', { name: /read-only\?$/ });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    // Before: the picker went on saying "Read only" though nothing had changed.
    await expect.poll(() => access.inputValue()).toBe(before);

    // Before: the remove button asked "Remove …?", then the service refused.
    const owner = overview.members.filter({ hasText: 'Owner' });
    const remove = owner.getByTestId('member-remove');
    await expect.poll(() => remove.isDisabled()).toBe(true);
    await expect
      .poll(() => remove.getAttribute('title'))
      .toMatch(/owner cannot be removed: choose another owner/);
    await screenshot(page, 'project-overview-members');
  });

  it('fits a project’s overview beside an open task', async () => {
    const { page, ui } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
    await ui.openDemoProject('Partner API 3');
    await page.getByTestId('layout-overview').click();
    const overview = page.getByTestId('project-overview');
    await overview.waitFor();
    const palette = new PalettePage(page);
    await palette.openHit('Ship invoice export', 'Tasks');
    await page.getByTestId('detail-panel').waitFor();
    // Before: the columns kept a 380 px minimum in a 340 px view, and the name, description and
    // status fields ran under the panel.
    const overflow = await overview.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBe(0);
    await screenshot(page, 'project-overview-beside-task');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('keeps the focus in the members’ form after adding one by keyboard', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
    await new PalettePage(page).openProject('Support desk 1', 'overview');
    const members = page.getByTestId('project-members');
    const dan = members.locator('[data-testid="member-row"]', { hasText: 'Dan Whitfield' });
    await dan.getByTestId('member-remove').click();
    await page.getByTestId('confirm-dialog').getByTestId('confirm').click();
    await dan.waitFor({ state: 'detached' });

    await page.getByTestId('member-add-user').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type('Dan');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="member-add-user"]:focus').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.locator('[data-testid="member-add"]:focus').waitFor();
    await page.keyboard.press('Enter');
    await dan.waitFor();
    // Before: Add went disabled under the focus, which fell to <body>; the next Tab started over.
    await page.locator('[data-testid="member-add-user"]:focus').waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
