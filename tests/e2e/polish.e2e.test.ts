/// <reference lib="dom" />
// The polish a daily user notices: a resizable sidebar that keeps its width and does not jump,
// go-to shortcuts, Escape out of the comment box, and internal values shown as words or colors.
import { describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH, screenshot } from './support/browser';
import { AppPage } from './pages/app';
import { appSuite } from './support/suite';
import { ProjectOverviewPage } from './pages/project-overview';
import { PalettePage } from './pages/palette';
import { TaskListPage } from './pages/task-list';

describe('polish: sidebar width, go-to keys, the comment box, values as words', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  const sidebarWidth = (): Promise<number> =>
    suite.page.evaluate(() =>
      Math.round(document.querySelector('nav.sidebar')?.getBoundingClientRect().width ?? 0),
    );

  it('resizes the sidebar by dragging its edge and with the arrow keys, and keeps the width after a reload', async () => {
    const { page, ui } = suite;
    const handle = page.getByRole('separator', { name: 'Resize the sidebar' });
    await handle.waitFor();
    const before = await sidebarWidth();
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(before);
    const box = await handle.boundingBox();
    if (!box) throw new Error('the resize handle is not drawn');
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + 200, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 + 100, box.y + 200, { steps: 4 });
    await page.mouse.up();
    await expect.poll(sidebarWidth).toBe(before + 100);
    await expect.poll(() => handle.getAttribute('aria-valuenow')).toBe(String(before + 100));

    // The keyboard: ← narrows by a step.
    await handle.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(sidebarWidth).toBe(before + 84);
    // Far past the maximum: clamped (480 px, or half of this 1280 px window's width).
    await page.keyboard.press('End');
    await expect.poll(sidebarWidth).toBe(480);
    await page.keyboard.press('Home');
    await expect.poll(sidebarWidth).toBe(176);
    // Shift+→ widens four steps at a time.
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(sidebarWidth).toBe(176 + 2 * 64);

    await page.reload();
    await ui.sidebar.waitFor();
    await expect.poll(sidebarWidth).toBe(304);
    await screenshot(page, 'polish-sidebar-resized');
    // Double-click: the default width again, also after a reload.
    await handle.dblclick();
    await expect.poll(sidebarWidth).toBe(before);
    await page.reload();
    await ui.sidebar.waitFor();
    await expect.poll(sidebarWidth).toBe(before);
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(sidebarWidth).toBe(before + 16);
  });

  it('keeps the sidebar where the user scrolled it when a view opens from it', async () => {
    const { page, ui } = suite;
    // Short window: the sidebar's list scrolls.
    await page.setViewportSize({ width: 1280, height: 520 });
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    const scroller = page.locator('nav.sidebar .scroll');
    const scrollTop = (): Promise<number> => scroller.evaluate((element) => element.scrollTop);
    await scroller.evaluate((element) => (element.scrollTop = element.scrollHeight));
    const scrolled = await scrollTop();
    expect(scrolled).toBeGreaterThan(0);
    await page.getByTestId('nav-changes').click();
    await ui.waitForTitle('Changes');
    await page.waitForTimeout(600);
    expect(await scrollTop()).toBe(scrolled);
    const project = ui.tree.getByRole('treeitem').last();
    await project.click();
    await page.waitForTimeout(600);
    expect(await scrollTop()).toBe(scrolled);
    // Half-way down, a view opened from the keyboard or a link at the top of the list.
    await scroller.evaluate((element) => (element.scrollTop = element.scrollHeight / 3));
    const halfway = await scrollTop();
    await ui.viewTitle.focus();
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await ui.waitForTitle('Calendar');
    await page.waitForTimeout(600);
    expect(await scrollTop()).toBe(halfway);
    await ui.treeItem('Support desk 1').click();
    await ui.waitForTitle('Support desk 1');
    await page.waitForTimeout(600);
    expect(await scrollTop()).toBe(halfway);
    await page.getByTestId('layout-overview').click();
    await page.waitForTimeout(600);
    expect(await scrollTop()).toBe(halfway);
    // The palette gives the focus back to the sidebar's item that had it when it closes.
    await ui.treeItem('Support desk 1').click();
    await scroller.evaluate((element) => (element.scrollTop = element.scrollHeight));
    const bottom = await scrollTop();
    await new PalettePage(page).runCommand('Go to Changes');
    await ui.waitForTitle('Changes');
    await page.waitForTimeout(600);
    expect(await scrollTop()).toBe(bottom);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('opens places with G then a letter, never while typing, and lists the keys in the help', async () => {
    const { page, ui } = suite;
    await ui.goToSettings();
    await ui.viewTitle.focus();
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await ui.waitForTitle('Calendar');
    await page.keyboard.press('g');
    await page.keyboard.press('m');
    await ui.waitForTitle('My Work');
    await expect.poll(() => page.getByTestId('nav-assigned').getAttribute('aria-current')).toBe('page');
    await page.keyboard.press('g');
    await page.keyboard.press('t');
    await ui.waitForTitle('My Time');
    await page.keyboard.press('g');
    await page.keyboard.press('u');
    await ui.waitForTitle('Updates');
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    await ui.waitForTitle('My Work');
    await expect
      .poll(() => page.getByTestId('nav-action-required').getAttribute('aria-current'))
      .toBe('page');

    // Typed in the search box, "gc" is text.
    const search = page.locator('#global-search');
    await search.focus();
    await page.keyboard.type('gc');
    await expect.poll(() => search.inputValue()).toBe('gc');
    await page.waitForTimeout(300);
    expect(await ui.viewTitle.innerText()).toContain('My Work');
    await search.fill('');

    await ui.viewTitle.focus();
    await page.keyboard.press('?');
    const help = page.getByTestId('shortcuts-help');
    await help.waitFor();
    await expect.poll(() => help.innerText()).toContain('Go to Calendar');
    for (const keys of ['G then I', 'G then M', 'G then C', 'G then T', 'G then U'])
      expect(await help.innerText()).toContain(keys);
    await screenshot(page, 'polish-shortcuts-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
  });

  it('leaves the comment box with Escape: the focus goes to the task, the draft stays', async () => {
    const { page, ui } = suite;
    const { task } = await ui.openBeside('Support desk 1', 0);
    const box = page.locator(`#composer-${task.id}`);
    await box.click();
    await page.keyboard.type('Half a thought');
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('detail-panel');
    expect(await page.getByTestId('detail-panel').getAttribute('data-task-id')).toBe(task.id);
    expect(await box.inputValue()).toBe('Half a thought');
    await screenshot(page, 'polish-comment-escape');
    await box.fill('');
  });

  it('shows a project’s health in words and its color as a swatch', async () => {
    const { page, ui } = suite;
    const overview = new ProjectOverviewPage(page);
    await ui.openDemoProject('Support desk 1');
    await overview.open();
    await overview.field('project-health').click();
    const options = page.getByRole('option');
    await expect
      .poll(() => options.allInnerTexts())
      .toEqual(expect.arrayContaining(['Green', 'Amber', 'Red']));
    expect((await options.allInnerTexts()).some((text) => /Health \d/.test(text))).toBe(false);
    await screenshot(page, 'polish-health-words');
    await page.keyboard.press('Escape');
    // The project's color: a swatch in the picker's button, as every option has one.
    const swatch = overview.field('project-color').locator('.dot');
    await expect.poll(() => swatch.count()).toBe(1);
    expect(await swatch.evaluate((dot) => getComputedStyle(dot).backgroundColor)).toMatch(/^rgb/);
  });

  it('shows tags with their color as a swatch, in the picker and on the task', async () => {
    const { page, ui } = suite;
    // The last project was left on its overview, and a project opens in the layout of the last one.
    await ui.openDemoProject('Support desk 2');
    await page.getByTestId('layout-list').click();
    const list = new TaskListPage(page);
    await list.waitForRows();
    await list.openRow(1);
    const add = page.getByTestId('detail-panel').getByTestId('add-tag');
    await add.click();
    // Urgent carries the palette's color 1 (red); the picker shows it before the name.
    const urgent = page.getByRole('option', { name: 'Urgent', exact: true });
    await urgent.waitFor();
    expect(await urgent.locator('.dot').evaluate((dot) => getComputedStyle(dot).backgroundColor)).toBe(
      'rgb(206, 59, 59)',
    );
    await page.getByRole('combobox', { name: /^Filter / }).fill('Urgent');
    await page.keyboard.press('Enter');
    const chip = page.getByTestId('detail-panel').getByTestId('task-tag').filter({ hasText: 'Urgent' });
    await expect
      .poll(() => chip.locator('.swatch').evaluate((dot) => getComputedStyle(dot).backgroundColor))
      .toBe('rgb(206, 59, 59)');
    await screenshot(page, 'polish-tag-swatches');
    await chip.getByRole('button', { name: 'Remove tag Urgent' }).click();
    await chip.waitFor({ state: 'detached' });
  });

  it('draws the scrollbars’ corner in the dark theme’s colors, not as a white square', async () => {
    // Headless Chromium hides scrollbars unless told otherwise: a page of its own that shows them.
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
      ignoreDefaultArgs: ['--hide-scrollbars'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
      const ui = new AppPage(page);
      await ui.open(suite.app.host.url);
      await new PalettePage(page).runCommand('Theme: dark');
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
      // A box that scrolls both ways, as a wide task list in a short window does.
      await page.evaluate(() => {
        const box = document.createElement('div');
        box.id = 'corner-probe';
        box.style.cssText =
          'position:fixed;left:400px;top:200px;width:160px;height:120px;overflow:scroll;z-index:999;background:var(--color-bg)';
        box.innerHTML = '<div style="width:600px;height:600px"></div>';
        document.body.append(box);
      });
      const box = await page.locator('#corner-probe').boundingBox();
      if (!box) throw new Error('the probe is not drawn');
      const corner = await page.screenshot({
        clip: { x: box.x + box.width - 8, y: box.y + box.height - 8, width: 6, height: 6 },
      });
      const brightest = await page.evaluate(async (base64) => {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
        let max = 0;
        for (let i = 0; i < data.length; i += 4) max = Math.max(max, data[i]!, data[i + 1]!, data[i + 2]!);
        return max;
      }, corner.toString('base64'));
      await screenshot(page, 'polish-dark-scrollbar-corner');
      // Before: Chromium's default corner, white (255) beside the dark scrollbars.
      expect(brightest).toBeLessThan(128);
      await new PalettePage(page).runCommand('Theme: light');
      expect(ui.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
