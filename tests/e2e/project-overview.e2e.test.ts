/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { AppPage } from './pages/app';
import { ProjectOverviewPage } from './pages/project-overview';

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

    expect(await page.getByTestId('project-name').inputValue()).toBe(project.name);
    const members = await app.api<ServiceMember[]>(`/project/${project.id}/users`);
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="member-row"]').length === count,
      members.length,
    );
    const first = members[0];
    if (first) {
      const row = page.locator(`[data-testid="member-row"][data-user="${first.id}"]`);
      expect(await row.locator('select option:checked').innerText()).toBe(first.access);
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
    await screenshot(page, 'project-overview-overview');
  });

  it('refuses a bad field plainly, naming it, and changes nothing', async () => {
    const name = page.getByTestId('project-name');
    await name.fill('   ');
    await name.press('Tab');
    const refusal = page.getByTestId('project-refusal');
    expect(await refusal.innerText()).toBe('Name: must not be empty');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    const progress = page.getByTestId('project-progress');
    await progress.fill('150');
    await progress.press('Tab');
    expect(await refusal.innerText()).toBe('Progress: must be a whole number from 0 to 100');
    await screenshot(page, 'project-overview-refusal');
    const after = await app.api<ServiceProject & { progress: number | null }>(`/project/${project.id}`);
    expect(after.name).toBe(project.name);
  });

  it('asks before making a member read-only, saying their items go to the owner', async () => {
    const select = page.getByTestId('member-access').first();
    await select.selectOption('-10');
    const confirm = page.locator('dialog[open][data-testid="confirm-dialog"]');
    await confirm.waitFor();
    expect(await confirm.innerText()).toMatch(/reassigned to the project owner/);
    await screenshot(page, 'project-overview-member-readonly-warning');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
  });
});
