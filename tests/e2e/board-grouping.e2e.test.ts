import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { BoardPage } from './pages/board';

interface ServiceTask {
  id: string;
  name: string;
  status: { name: string };
  priority: number;
  assignedToUserId: string | null;
}

describe('the board grouped by status, assignee or priority; its filter bar and status dots', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 860 } });

  /** The first project by name in 'Website relaunch area 1' that holds documents. */
  async function projectWithDocuments(): Promise<string> {
    const { app } = suite;
    const projects =
      await app.api<{ id: string; name: string; parentProjectId: string | null }[]>('/projects');
    const area = projects.find((p) => p.name === 'Website relaunch area 1');
    const inArea = projects
      .filter((p) => area && p.parentProjectId === area.id)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const project of inArea)
      if ((await app.api<unknown[]>(`/project/${project.id}/documents`)).length) return project.name;
    throw new Error("the demo seed has no project with documents in 'Website relaunch area 1'");
  }

  it('groups by assignee and by priority; a drag changes that field on the service', async () => {
    const { app, page, ui } = suite;
    const board = new BoardPage(page);
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    const tasks = await app.api<ServiceTask[]>('/project/g7-p6/tasks');
    // Unique names, so a card is found by its name alone.
    const unique = tasks.filter((t) => tasks.filter((o) => o.name === t.name).length === 1);
    // From the column beside Dan's, and from a high priority beside Blocker's, so both ends of
    // each drag are on screen.
    const byDan = unique.find((t) => t.assignedToUserId === 'u-cleo')!;
    const toBlocker = unique.find((t) => [8, 9, 10, 100].includes(t.priority) && t.id !== byDan.id)!;
    await ui.openProject('Mobile app 6');
    await page.getByTestId('layout-board').click();
    await board.root.waitFor();
    expect(await board.grouping()).toBe('board-group-status');

    await board.groupBy('assignee');
    await expect.poll(() => board.root.getAttribute('aria-label')).toBe('Board by assignee');
    const people = await board.columnNames();
    expect(people[0]).toBe('Nobody');
    expect(people).toContain('Dan Whitfield');
    // Both columns in view: the drag itself does not scroll the board.
    await board.column('Dan Whitfield').scrollIntoViewIfNeeded();
    await board.drag(byDan.name, 'Dan Whitfield');
    await board.column('Dan Whitfield').getByTestId('board-card').filter({ hasText: byDan.name }).waitFor();
    await screenshot(page, 'board-by-assignee');
    await eventually(
      () => app.api<ServiceTask>(`/task/${byDan.id}`),
      (t) => t.assignedToUserId === 'u-dan',
    );

    await board.groupBy('priority');
    await board.column('Emergency').scrollIntoViewIfNeeded();
    expect((await board.columnNames()).slice(0, 3)).toEqual(['Emergency', 'Blocker', '10']);
    await board.drag(toBlocker.name, 'Blocker');
    await board.column('Blocker').getByTestId('board-card').filter({ hasText: toBlocker.name }).waitFor();
    await screenshot(page, 'board-by-priority');
    await eventually(
      () => app.api<ServiceTask>(`/task/${toBlocker.id}`),
      (t) => t.priority === 50,
    );
  });

  it('remembers the grouping per project', async () => {
    const { page, ui } = suite;
    const board = new BoardPage(page);
    // Another project starts by status.
    await ui.openProject('Mobile app 5');
    await page.getByTestId('layout-board').click();
    await board.root.waitFor();
    expect(await board.grouping()).toBe('board-group-status');

    // Back to the first, after a reload: still by priority.
    await page.reload();
    await ui.sidebar.waitFor();
    await ui.openProject('Mobile app 6');
    await page.getByTestId('layout-board').click();
    await board.root.waitFor();
    expect(await board.grouping()).toBe('board-group-priority');
    await expect.poll(() => board.root.getAttribute('aria-label')).toBe('Board by priority');
  });

  it('keeps the board’s task count on a line with the column grouping at 1280 px', async () => {
    const { page, ui } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    await ui.openDemoProject(await projectWithDocuments());
    await page.getByTestId('layout-board').click();
    const total = page.getByTestId('list-total');
    await total.waitFor();
    const bar = page.getByRole('toolbar', { name: 'Filters' });
    // Before: "23 tasks" wrapped alone onto a second line. Now it shares its line with the
    // grouping control (both wrap together when the bar is too narrow for one line).
    const sharing = await bar.evaluate((el) => {
      const count = el.querySelector('[data-testid="list-total"]')!.getBoundingClientRect();
      const onCountLine = (item: Element): boolean => {
        const box = item.getBoundingClientRect();
        return box.top < count.bottom && box.bottom > count.top;
      };
      const others = [...el.querySelectorAll('button, label, .muted:not([data-testid="list-total"])')];
      return others.filter(onCountLine).map((item) => item.textContent?.trim());
    });
    expect(sharing).toEqual(expect.arrayContaining(['Columns by', 'Status', 'Assignee', 'Priority']));
    await screenshot(page, 'board-filters-line');
    await page.setViewportSize({ width: 1440, height: 860 });
  });

  it('draws a not-started status dot that can be seen in the dark theme', async () => {
    const { page, ui } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
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
    await screenshot(page, 'board-dark-status-dot');
    await page.getByTestId('layout-list').click();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 860 });
  });
});
