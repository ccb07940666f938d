import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { TaskListPage, type TaskRef } from './pages/task-list';
import { CalendarPage } from './pages/calendar';
import { AppPage } from './pages/app';

// Session 5 review: the smaller findings a user meets in a day (see /work/notes/s5-review.md).
describe('small things in a working day', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  /** Opens a demo project's list, and the task of its `index`th row beside it. */
  async function openBeside(project: string, index: number): Promise<{ list: TaskListPage; task: TaskRef }> {
    const list = new TaskListPage(suite.page);
    await suite.ui.openDemoProject(project);
    await list.waitForRows();
    return { list, task: await list.openRow(index) };
  }

  it('opens a task full size with O when its row is already open beside the list', async () => {
    const { page, ui } = suite;
    const {
      list,
      task: { id },
    } = await openBeside('Mobile app 5', 1);
    await list.table.focus();
    // Before: O opened the same task beside the list again, which did nothing.
    await page.keyboard.press('o');
    await page.waitForFunction(() => !document.querySelector('[data-testid="detail-panel"]'));
    await page.waitForFunction((taskId) => !!document.getElementById(`title-${taskId}`), id);
    await screenshot(page, 'review-o-full-size');
    await ui.back();
    await page.getByTestId('detail-panel').waitFor();
  });

  it('gives the focus back to the task in the list or on the board when its panel closes', async () => {
    const { page } = suite;
    const {
      task: { id },
    } = await openBeside('Mobile app 6', 2);
    const panel = page.getByTestId('detail-panel');
    // Before: closing with the button left the focus on the page's body.
    await panel.getByRole('button', { name: 'Close details (Escape)' }).click();
    await panel.waitFor({ state: 'detached' });
    const focusedRow = (): Promise<string | null | undefined> =>
      page.evaluate(() => {
        const grid = document.activeElement?.closest('[role="grid"]');
        const active = grid?.getAttribute('aria-activedescendant');
        return active ? document.getElementById(active)?.getAttribute('data-task-id') : undefined;
      });
    expect(await focusedRow()).toBe(id);

    await page.getByTestId('layout-board').click();
    const card = page.locator(`[data-testid="board-card"][data-task-id="${id}"]`);
    await card.focus();
    await page.keyboard.press('Enter');
    await panel.getByRole('button', { name: 'Open full view' }).focus();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-task-id'))).toBe(id);
    await page.getByTestId('layout-list').click();
  });

  it('lists an agenda line with only the parts it has: no dot before a milestone’s project', async () => {
    const { page } = suite;
    const calendar = new CalendarPage(page);
    await calendar.open();
    // The demo's milestone is five days back, without an end; that may be last month.
    const milestone = new Date();
    milestone.setDate(milestone.getDate() - 5);
    if (milestone.getMonth() !== new Date().getMonth()) {
      await page.getByRole('button', { name: /previous month/i }).click();
    }
    await page.getByRole('radio', { name: 'Agenda', exact: true }).click();
    await calendar.agendaItems.first().waitFor();
    const metas = await calendar.agendaItems.locator('.meta').allInnerTexts();
    expect(metas.filter((meta) => /^\s*·|·\s*$|·\s*·/.test(meta))).toEqual([]);
    const line = calendar.agendaItems.filter({ hasText: 'project milestone 1' });
    expect((await line.locator('.meta').innerText()).trim()).toMatch(/^[^·\s]/);
    await screenshot(page, 'review-agenda');
  });

  it('asks before a delete in words that are true: no "its 0 subtasks"', async () => {
    const { page } = suite;
    const {
      task: { name },
    } = await openBeside('Partner API 9', 3);
    const panel = page.getByTestId('detail-panel');
    await panel.getByRole('heading', { name: /^Messages/ }).waitFor();
    const subtasks = await panel.getByTestId('subtask').count();
    await panel.getByTestId('delete-task').click();
    const confirm = page.getByTestId('confirm-dialog');
    const text = await confirm.locator('p').first().innerText();
    const expected =
      subtasks === 0
        ? `'${name}' and all its messages will be deleted.`
        : `'${name}', its ${subtasks === 1 ? 'subtask' : `${subtasks} subtasks`} and all its messages will be deleted.`;
    expect(text.startsWith(expected)).toBe(true);
    await page.keyboard.press('Escape');
    await confirm.getByRole('heading').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
  });

  it('draws a not-started status dot that can be seen in the dark theme', async () => {
    const { page, ui } = suite;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset['theme'] === 'dark');
    await ui.openDemoProject('Mobile app 5');
    await page.getByTestId('layout-board').click();
    const header = page.getByTestId('board-column').filter({ hasText: 'New' }).first();
    await header.waitFor();
    // Contrast of the column's dot with what is behind it (WCAG: 3:1 for a graphic).
    const ratio = await header.evaluate((column) => {
      const dot = [...column.querySelectorAll<HTMLElement>('*')].find(
        (el) =>
          el.getBoundingClientRect().width <= 10 &&
          getComputedStyle(el).backgroundColor !== 'rgba(0, 0, 0, 0)',
      );
      if (!dot) throw new Error('no status dot in the column');
      const rgb = (css: string): number[] => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      let back: Element | null = dot.parentElement;
      while (back && getComputedStyle(back).backgroundColor === 'rgba(0, 0, 0, 0)') back = back.parentElement;
      const lum = (css: string): number => {
        const [r = 0, g = 0, b = 0] = rgb(css).map((v) => {
          const c = v / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const a = lum(getComputedStyle(dot).backgroundColor);
      const b = lum(back ? getComputedStyle(back).backgroundColor : 'rgb(0, 0, 0)');
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    });
    // Before: 1.9:1, the dot of New and Not started all but vanished.
    expect(ratio).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'review-board-dark');
    await page.getByTestId('layout-list').click();
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('empties the search box once the results are left, and shows the query again on the way back', async () => {
    const { page, ui } = suite;
    const box = page.locator('#global-search');
    await box.fill('login');
    await box.press('Enter');
    await ui.waitForTitle('Search');
    await ui.goToSettings();
    // Before: "login" stayed in the box over Settings, as if it filtered the page.
    expect(await box.inputValue()).toBe('');
    await ui.back();
    await ui.waitForTitle('Search');
    expect(await box.inputValue()).toBe('login');
  });

  it('shows a field that cannot be changed as such, and says why', async () => {
    const { page, ui } = suite;
    // This suite's core keeps no settings (a core on one service, no accounts store).
    await ui.goToSettings();
    const interval = page.locator('#sync-interval');
    expect(await interval.isDisabled()).toBe(true);
    // Before: drawn like any field, with nothing to say why typing did nothing.
    const look = await interval.evaluate((el) => {
      const style = getComputedStyle(el);
      return { cursor: style.cursor, background: style.backgroundColor };
    });
    const pageBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(look.cursor).toBe('not-allowed');
    expect(look.background).not.toBe(pageBackground);
    expect(await page.getByTestId('sync-interval-note').innerText()).toMatch(/keeps no settings/);
  });

  it('says what a refused estimate must be', async () => {
    const { page } = suite;
    await openBeside('Support desk 2', 1);
    const panel = page.getByTestId('detail-panel');
    await panel.getByTestId('task-fields').waitFor();
    const hours = panel.getByLabel('Estimate hours');
    await hours.fill('-3');
    await hours.press('Tab');
    // The pair is read when the focus leaves it.
    await panel.getByLabel('Estimate minutes').press('Tab');
    // Before: "hours must be a whole number", which -3 is.
    await panel.getByText('Estimate: hours must be a whole number, 0 or more, and minutes 0 to 59').waitFor();
  });
});

// Session 5 review, finding 19: on macOS the shortcuts are Cmd chords (the app binds Cmd there,
// and the shortcuts help says so), but Home, the search box, the New task tooltip, the
// composer and an empty project's hint all said Ctrl.
describe('the key hints on macOS', () => {
  const suite = appSuite({ service: { seed: 'demo' }, page: false });

  it('name Cmd wherever the app names the primary key', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => Object.defineProperty(navigator, 'platform', { get: () => 'MacIntel' }));
    const ui = new AppPage(page);
    await ui.open(suite.app.host.url);
    await ui.waitForTitle('Home');
    const hint = await page.locator('.hint').first().innerText();
    expect(hint).toContain('Cmd+N new task');
    expect(hint).toContain('Cmd+, settings');
    expect(await page.locator('#global-search').getAttribute('placeholder')).toBe('Search  (Cmd+K)');
    expect(
      await page
        .getByRole('button', { name: /New task/ })
        .first()
        .getAttribute('title'),
    ).toBe('New task (Cmd+N)');
    const list = new TaskListPage(page);
    await ui.openDemoProject('Mobile app 5');
    await list.waitForRows();
    await list.openRow(0);
    await page.getByTestId('detail-panel').getByText('Cmd+Enter to send').waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/Ctrl\+/);
    expect(ui.errors).toEqual([]);
    await page.close();
  });
});
