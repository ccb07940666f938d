// The sidebar keeps where the user scrolled it: opening a project low in the tree, the go-to
// keys, the palette and back/forward navigate without the sidebar scrolling by itself (the
// review reported such a self-scroll; this is the check that it does not happen).
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';

describe('the sidebar does not scroll by itself on navigation', () => {
  // Short enough that the demo tree, opened, scrolls.
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 520 } });
  /** The sidebar's scrolling part, found as the tree's nearest ancestor that scrolls. */
  const scrollTop = () =>
    suite.page.evaluate(() => {
      let el = document.querySelector<HTMLElement>('[data-testid="project-tree"]');
      while (el && el.scrollHeight <= el.clientHeight + 1) el = el.parentElement;
      return el ? el.scrollTop : -1;
    });

  beforeAll(async () => {
    const { ui } = suite;
    await ui.expand('Company Workspace');
    await ui.expand('Data platform area 2');
    await ui.expand('Website relaunch area 1');
  });

  it('keeps its scroll through a project opened low in it, go-to keys, the palette, back and forward', async () => {
    const { page, ui } = suite;
    await page.evaluate(() => {
      let el = document.querySelector<HTMLElement>('[data-testid="project-tree"]');
      while (el && el.scrollHeight <= el.clientHeight + 1) el = el.parentElement;
      if (el) el.scrollTop = el.scrollHeight;
    });
    const kept = await scrollTop();
    expect(kept).toBeGreaterThan(100);

    // The last project, in view at the bottom: opened by a click.
    const items = ui.tree.getByRole('treeitem');
    await items.last().click();
    const steps: [string, () => Promise<void>][] = [
      [
        'G then M',
        async () => {
          await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
          await page.keyboard.press('g');
          await page.keyboard.press('m');
          await ui.waitForTitle('My Work');
        },
      ],
      ['back', () => ui.back()],
      ['forward', () => ui.forward()],
      [
        'the palette',
        async () => {
          await page.keyboard.press('Control+k');
          await page.keyboard.type('Support desk 1');
          await page.getByRole('option').first().waitFor();
          await page.keyboard.press('Enter');
          await ui.waitForTitle('Support desk 1');
        },
      ],
      [
        'G then C',
        async () => {
          await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
          await page.keyboard.press('g');
          await page.keyboard.press('c');
          await ui.waitForTitle('Calendar');
        },
      ],
      ['back again', () => ui.back()],
    ];
    for (const [what, step] of steps) {
      await step();
      // Given a moment to scroll if it were going to.
      await page.waitForTimeout(300);
      expect(await scrollTop(), `the sidebar scrolled after ${what}`).toBe(kept);
    }
    await screenshot(page, 'sidebar-scroll-kept');
  });
});
