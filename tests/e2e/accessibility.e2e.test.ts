/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, SCREENSHOT_DIR } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { audit, describeFindings, failing, type AxeFinding } from './support/axe';
import { eventually } from './support/wait';
import { AppPage } from './pages/app';
import { TaskListPage } from './pages/task-list';
import { ChangesPage } from './pages/changes';
import { editWhileColleagueEdits } from './support/conflict-scenario';
import { CalendarPage } from './pages/calendar';
import { CrmPage } from './pages/crm';
import { PalettePage } from './pages/palette';
import { ProjectOverviewPage } from './pages/project-overview';

interface ServiceTask {
  id: string;
  name: string;
  status: { id: string; name: string };
  priority: number;
}

/** One view of the walk: how to get there from the view before it. */
interface Step {
  name: string;
  go(page: Page): Promise<void>;
}

const PROJECT = 'Customer portal 4';

const STEPS: Step[] = [
  {
    name: 'home',
    async go(page) {
      // The app reopens where it was left (Changes, after the set-up): Home from the palette.
      await new PalettePage(page).runCommand('Go to Home');
      await new AppPage(page).waitForTitle('Home');
    },
  },
  {
    name: 'new-project-dialog',
    async go(page) {
      await page.getByTestId('new-project').click();
      await page.getByTestId('new-project-dialog').getByRole('heading').waitFor();
    },
  },
  {
    name: 'project-list',
    async go(page) {
      await page.keyboard.press('Escape');
      await page.getByTestId('new-project-dialog').waitFor({ state: 'hidden' });
      const ui = new AppPage(page);
      await ui.openDemoProject(PROJECT);
      await new TaskListPage(page).waitForRows();
    },
  },
  {
    name: 'task-detail',
    async go(page) {
      await new TaskListPage(page).openRow(0);
      await page.getByTestId('task-detail').waitFor();
    },
  },
  {
    name: 'status-picker',
    async go(page) {
      await page.getByTestId('task-detail').getByTestId('field-status').click();
      await page.getByRole('combobox', { name: /^Filter / }).waitFor();
    },
  },
  {
    name: 'status-dialog',
    async go(page) {
      const filter = page.getByRole('combobox', { name: /^Filter / });
      const current = await page
        .getByTestId('task-detail')
        .getByTestId('field-status')
        .getAttribute('aria-label');
      // A status chosen applies at once; the dialog is "With a message…", with the status asked.
      await filter.fill('With a message');
      await filter.press('Enter');
      await page.getByTestId('status-dialog').waitFor();
      await page.getByTestId('status-dialog-status').click();
      await page
        .getByRole('combobox', { name: /^Filter / })
        .fill(/in progress/i.test(current ?? '') ? 'New' : 'In progress');
      await page.getByRole('combobox', { name: /^Filter / }).press('Enter');
    },
  },
  {
    name: 'board',
    async go(page) {
      // The status dialog is cancelled (nothing changes), then the task closed (in a narrow
      // window it covers the list and its toolbar).
      await page.keyboard.press('Escape');
      await page.getByTestId('status-dialog').waitFor({ state: 'hidden' });
      await page.keyboard.press('Escape');
      await page.getByTestId('detail-panel').waitFor({ state: 'detached' });
      await page.getByTestId('layout-board').click();
      await page.getByTestId('board-card').first().waitFor();
    },
  },
  {
    name: 'overview',
    async go(page) {
      await new ProjectOverviewPage(page).open();
    },
  },
  {
    name: 'document',
    async go(page) {
      const overview = new ProjectOverviewPage(page);
      await overview.documents.first().click();
      await overview.reader.waitFor();
    },
  },
  {
    name: 'timeline',
    async go(page) {
      await page.keyboard.press('Escape');
      await page.getByTestId('layout-timeline').click();
      await page.getByTestId('timeline').waitFor();
    },
  },
  {
    name: 'new-task-dialog',
    async go(page) {
      await page.keyboard.press('Control+n');
      await page.getByTestId('new-task-dialog').getByRole('heading').waitFor();
    },
  },
  {
    name: 'my-work',
    async go(page) {
      await page.keyboard.press('Escape');
      await new AppPage(page).goToAssigned();
      await new TaskListPage(page).waitForRows();
    },
  },
  {
    name: 'task-page',
    async go(page) {
      await new TaskListPage(page).openRow(0);
      await page.getByRole('button', { name: 'Open full view' }).click();
      await page.getByTestId('task-detail').waitFor();
      await page.getByTestId('detail-panel').waitFor({ state: 'detached' });
    },
  },
  {
    name: 'search',
    async go(page) {
      await page.locator('#global-search').fill('invoice');
      await page.locator('#global-search').press('Enter');
      await new AppPage(page).waitForTitle('invoice');
      await page.getByRole('list', { name: 'Search results' }).waitFor();
    },
  },
  {
    name: 'tag',
    async go(page) {
      await page.getByRole('region', { name: 'Tags', exact: true }).getByRole('button').first().click();
      await new TaskListPage(page).waitForRows();
    },
  },
  {
    name: 'calendar-month',
    async go(page) {
      await new CalendarPage(page).open();
      await new CalendarPage(page).chips.first().waitFor();
    },
  },
  {
    name: 'event-detail',
    async go(page) {
      await new CalendarPage(page).chips.first().click();
      await new CalendarPage(page).detail.waitFor();
    },
  },
  {
    name: 'calendar-agenda',
    async go(page) {
      await page.getByTestId('event-close').click();
      await page.getByTestId('view-agenda').click();
      await new CalendarPage(page).agendaItems.first().waitFor();
    },
  },
  {
    name: 'new-event-dialog',
    async go(page) {
      await page.getByTestId('event-new').click();
      await new CalendarPage(page).newEvent.waitFor();
    },
  },
  {
    name: 'contacts',
    async go(page) {
      await page.keyboard.press('Escape');
      await new CrmPage(page).openContacts();
      await new CrmPage(page).rows.first().waitFor();
    },
  },
  {
    name: 'contact-record',
    async go(page) {
      const crm = new CrmPage(page);
      await crm.rows.first().click();
      await crm.detail.waitFor();
    },
  },
  {
    name: 'accounts',
    async go(page) {
      const crm = new CrmPage(page);
      await crm.openAccounts();
      await crm.rows.first().click();
      await crm.detail.waitFor();
    },
  },
  {
    name: 'palette',
    async go(page) {
      const palette = new PalettePage(page);
      await palette.open();
      await palette.search('portal', 'Projects');
    },
  },
  {
    name: 'shortcuts-help',
    async go(page) {
      await page.keyboard.press('Escape');
      await page.getByTestId('palette').waitFor({ state: 'hidden' });
      await page.keyboard.press('?');
      await new PalettePage(page).help.waitFor();
    },
  },
  {
    name: 'changes',
    async go(page) {
      await page.keyboard.press('Escape');
      await new AppPage(page).goToChanges();
      await new ChangesPage(page).conflicts.first().waitFor();
    },
  },
  {
    name: 'change-correction',
    async go(page) {
      const refused = new ChangesPage(page).entries.filter({ hasText: 'Refused by the service' }).first();
      await refused.getByRole('button', { name: 'Edit' }).click();
      await page.getByTestId('change-correction').waitFor();
    },
  },
  {
    name: 'settings',
    async go(page) {
      await new AppPage(page).goToSettings();
    },
  },
];

describe('accessibility: no serious or critical axe finding on any view, light and dark', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo', faults: true } });
    browser = await launchBrowser();
    await makeConflicts(app, browser);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`walks every view in the ${theme} theme`, { timeout: 240_000 }, async () => {
      const context = await browser.newContext({
        bypassCSP: true,
        colorScheme: theme,
        viewport: { width: 1280, height: 760 },
      });
      try {
        const page = await context.newPage();
        const ui = new AppPage(page);
        await ui.open(app.host.url);
        expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe(theme);
        const findings: AxeFinding[] = [];
        const undecided: { view: string; rule: string; target: string; summary: string }[] = [];
        for (const step of STEPS) {
          await step.go(page);
          await settle(page);
          const result = await audit(page, step.name);
          // A page axe could not read (the script missing, an empty frame) would pass vacuously.
          expect(result.rulesPassed, step.name).toBeGreaterThan(15);
          findings.push(...result.findings);
          undecided.push(...result.undecided.map((item) => ({ view: step.name, ...item })));
          await screenshot(page, `accessibility-${theme}-${step.name}`);
        }
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        writeFileSync(
          join(SCREENSHOT_DIR, `accessibility-${theme}.json`),
          JSON.stringify({ findings, undecided }, null, 2),
        );
        const bad = failing(findings);
        expect(bad, describeFindings(bad)).toEqual([]);
        expect(ui.errors).toEqual([]);
      } finally {
        await closeQuietly(context);
      }
    });
  }

  // Text at 200 %: a 1280 x 800 window zoomed to 200 % lays the page out in 640 x 400 CSS pixels.
  it('keeps every control in reach at 200 % zoom in a narrow window', { timeout: 240_000 }, async () => {
    const context = await browser.newContext({
      colorScheme: 'light',
      viewport: { width: 640, height: 400 },
      deviceScaleFactor: 2,
    });
    try {
      const page = await context.newPage();
      const ui = new AppPage(page);
      await ui.open(app.host.url);
      const clipped: string[] = [];
      for (const step of STEPS) {
        await step.go(page);
        await settle(page);
        clipped.push(...(await clippedControls(page)).map((control) => `[${step.name}] ${control}`));
        await screenshot(page, `accessibility-zoom-${step.name}`);
      }
      expect(clipped, clipped.join('\n')).toEqual([]);
      expect(ui.errors).toEqual([]);
    } finally {
      await closeQuietly(context);
    }
  });
});

/**
 * The controls (buttons, fields, links) that are cut off where nothing scrolls to them: partly
 * outside a box that clips without scrolling, or outside the window with no scroller between.
 * Each described by its text or name.
 */
function clippedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const controls = document.querySelectorAll<HTMLElement>(
      'button, input:not([type="hidden"]), select, textarea, a[href], [role="button"], [tabindex="0"]',
    );
    const out: string[] = [];
    const EPS = 1;
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      // Not drawn, or drawn as a visually hidden label (1 px).
      if (box.width <= 1 || box.height <= 1 || !control.checkVisibility({ visibilityProperty: true }))
        continue;
      // A closed dialog's, and the skip link, out of sight until the keyboard reaches it.
      if (control.closest('dialog:not([open])') || control.matches('[data-testid="skip-link"]:not(:focus)'))
        continue;
      let cut = false;
      let scrolled = false;
      for (let el = control.parentElement; el && !cut; el = el.parentElement) {
        const style = getComputedStyle(el);
        const overflow = `${style.overflowX} ${style.overflowY}`;
        if (/auto|scroll/.test(overflow)) {
          scrolled = true;
          break;
        }
        if (/hidden|clip/.test(overflow) && el !== document.body && el !== document.documentElement) {
          const limit = el.getBoundingClientRect();
          cut =
            box.left < limit.left - EPS ||
            box.right > limit.right + EPS ||
            box.top < limit.top - EPS ||
            box.bottom > limit.bottom + EPS;
        }
      }
      if (!cut && !scrolled)
        cut =
          box.left < -EPS || box.top < -EPS || box.right > innerWidth + EPS || box.bottom > innerHeight + EPS;
      if (cut) {
        const name =
          control.getAttribute('aria-label') ?? control.textContent?.trim().slice(0, 40) ?? control.tagName;
        out.push(
          `${control.tagName.toLowerCase()} "${name}" at ${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}x${Math.round(box.height)}`,
        );
      }
    }
    return out;
  });
}

/** Lets transitions and the next frame finish before axe reads colors. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))),
  );
  await page.waitForTimeout(250);
}

async function closeQuietly(context: BrowserContext): Promise<void> {
  await context.close().catch(() => undefined);
}

/**
 * Leaves a refused change, two changes waiting and two conflicts in the journal, held there for
 * the walk: writes to the service fail (5xx, retried later), reads reach it.
 */
async function makeConflicts(app: RunningApp, browser: Browser): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  const ui = new AppPage(page);
  await ui.open(app.host.url);
  const tasks = await app.api<ServiceTask[]>('/project/g7-p4/tasks');
  const target = tasks.find((task) => task.status.name !== 'Done' && task.priority < 8)!;
  const list = new TaskListPage(page);
  // A change the service refuses (an assignee it does not know, queued as another window of the
  // app could), kept in Changes with the service's reason.
  const [other] = await app.api<ServiceTask[]>('/project/g7-p5/tasks');
  const queued = await app.core.dispatch('tasks.update', {
    taskId: other!.id,
    changes: { assignedToUserId: 'u-nobody' },
  });
  expect(queued.ok).toBe(true);
  await page.getByTestId('failed-count').waitFor();
  await ui.openDemoProject(PROJECT);
  await list.waitForRows();
  await editWhileColleagueEdits(app, ui, list, target);
  await ui.goToChanges();
  await eventually(
    () => new ChangesPage(page).conflicts.count(),
    (n) => n === 2,
  );
  expect(ui.errors).toEqual([]);
  await page.close();
}
