/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { eventually } from './support/wait';
import { uniquelyNamed } from './support/demo';
import { AppPage } from './pages/app';
import { TaskListPage } from './pages/task-list';
import { ProjectOverviewPage } from './pages/project-overview';
import { CalendarPage } from './pages/calendar';

interface ServiceTask {
  id: string;
  name: string;
}
interface Link {
  id: string;
  type: number;
  predecessorTaskId?: string;
  predecessorEventId?: string;
  predecessorProjectId?: string;
  successorTaskId?: string;
  successorEventId?: string;
  successorProjectId?: string;
}
interface Dependencies {
  predecessors: Link[];
  successors: Link[];
}

describe('dependency writes: add by searching the other item, remove', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;
  let task: ServiceTask;
  let other: ServiceTask;

  const dependencies = (): Promise<Dependencies> => app.api<Dependencies>(`/task/${task.id}/dependencies`);

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    const unique = uniquelyNamed(tasks);
    if (unique.length < 2) throw new Error('the demo project has too few distinct task names');
    [task, other] = [unique[0]!, unique[1]!];
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    ui = new AppPage(page);
    await ui.open(app.host.url);
    await ui.openDemoProject('Support desk 1');
    const list = new TaskListPage(page);
    await list.waitForRows();
    await list.open(task);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('adds a Start to Start predecessor found by its name', async () => {
    const panel = page.getByTestId('dependency-panel');
    await panel.scrollIntoViewIfNeeded();
    await panel.getByTestId('dependency-side').selectOption('predecessor');
    await panel.getByTestId('dependency-type').selectOption({ label: 'Start to Start' });
    await panel.getByTestId('dependency-search').fill(other.name);
    await page.getByTestId('dependency-result').filter({ hasText: other.name }).first().waitFor();
    await screenshot(page, 'dependencies-search');
    await panel.getByTestId('dependency-search').press('Enter');
    await panel.getByTestId('predecessors').getByText(other.name).waitFor();
    await expect.poll(() => panel.getByTestId('predecessors').innerText()).toContain('Start to Start');
    const after = await eventually(dependencies, (d) =>
      d.predecessors.some((link) => link.predecessorTaskId === other.id),
    );
    expect(after.predecessors.find((link) => link.predecessorTaskId === other.id)?.type).toBe(6);
  });

  it('adds a Finish to Finish successor that is an event', async () => {
    const panel = page.getByTestId('dependency-panel');
    await panel.getByTestId('dependency-side').selectOption('successor');
    await panel.getByTestId('dependency-type').selectOption({ label: 'Finish to Finish' });
    await panel.getByTestId('dependency-search').fill('company holiday');
    const result = page.getByTestId('dependency-result').filter({ hasText: 'Event' }).first();
    await result.waitFor();
    const eventName = (await result.innerText()).replace(/^Event\s*/i, '').trim();
    await result.click();
    await panel.getByTestId('successors').getByText(eventName).waitFor();
    const after = await eventually(dependencies, (d) =>
      d.successors.some((link) => link.successorEventId !== undefined && link.type === 7),
    );
    expect(after.successors.filter((link) => link.successorEventId).length).toBe(1);
    await screenshot(page, 'dependencies-added');
  });

  it('removes the task predecessor, and the service drops it', async () => {
    const panel = page.getByTestId('dependency-panel');
    await panel.getByRole('button', { name: `Remove the dependency on ${other.name}` }).click();
    await panel.getByTestId('predecessors').getByText('None').waitFor();
    await eventually(
      dependencies,
      (d) => !d.predecessors.some((link) => link.predecessorTaskId === other.id),
    );
    await ui.waitForPendingCount(0);
    await screenshot(page, 'dependencies-removed');
  });

  it('adds and removes a dependency on the project overview', async () => {
    const ofProject = (): Promise<Dependencies> => app.api<Dependencies>('/project/g7-p1/dependencies');
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    const panel = overview.root.getByTestId('dependency-panel');
    await panel.getByTestId('predecessors').waitFor();
    await panel.scrollIntoViewIfNeeded();
    await panel.getByTestId('dependency-side').selectOption('predecessor');
    await panel.getByTestId('dependency-type').selectOption({ label: 'Finish to Start' });
    await panel.getByTestId('dependency-search').fill(other.name);
    await page.getByTestId('dependency-result').filter({ hasText: other.name }).first().click();
    await panel.getByTestId('predecessors').getByText(other.name).waitFor();
    await eventually(ofProject, (d) =>
      d.predecessors.some((link) => link.predecessorTaskId === other.id && link.type === 5),
    );
    await screenshot(page, 'dependencies-project');
    await panel.getByRole('button', { name: `Remove the dependency on ${other.name}` }).click();
    await eventually(ofProject, (d) => !d.predecessors.some((link) => link.predecessorTaskId === other.id));
    await panel.getByTestId('predecessors').getByText(other.name).waitFor({ state: 'detached' });
  });

  it('lists, adds and removes the dependencies of an event', async () => {
    const calendar = new CalendarPage(page);
    await calendar.open();
    const chip = calendar.chips.filter({ hasText: 'project milestone' }).first();
    await chip.click();
    await calendar.detail.waitFor();
    const events = await app.api<{ id: string; name: string }[]>(
      `/events?startDate=2000-01-01&endDate=2100-01-01&eventTypes=project-milestone`,
    );
    const title = (await calendar.detail.getByRole('heading').first().innerText()).trim();
    const event = events.find((e) => e.name === title);
    if (!event) throw new Error(`no milestone named ${title}`);
    const ofEvent = (): Promise<Dependencies> => app.api<Dependencies>(`/event/${event.id}/dependencies`);
    const panel = calendar.detail.getByTestId('dependency-panel');
    await panel.getByTestId('successors').waitFor();
    await panel.getByTestId('dependency-side').selectOption('successor');
    await panel.getByTestId('dependency-search').fill('Support desk 2');
    await page.getByTestId('dependency-result').filter({ hasText: 'Support desk 2' }).first().click();
    await panel.getByTestId('successors').getByText('Support desk 2').waitFor();
    const added = await eventually(ofEvent, (d) => d.successors.some((link) => link.successorProjectId));
    expect(added.successors.find((link) => link.successorProjectId)?.type).toBe(5);
    await screenshot(page, 'dependencies-event');
    await panel.getByRole('button', { name: 'Remove the dependency on Support desk 2' }).click();
    await eventually(ofEvent, (d) => !d.successors.some((link) => link.successorProjectId));
    await ui.waitForPendingCount(0);
  });
});
