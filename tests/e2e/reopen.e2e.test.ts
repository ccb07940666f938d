// The app reopens where the user was: a reload (a restart of the window) on My Work opens My
// Work with its rows, on a project that project, without Home drawn first and with no history
// behind it; a project whose open task is no longer held reopens without that task; a kept place
// that names a project no longer held (the core answers none), or that is not a place of the
// app, opens Home, never an error page. Each test stands alone (its own watch of the titles).
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { TaskListPage } from './pages/task-list';

describe('the app reopens where the user was', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  /** The place the core keeps for the account, as the next start reads it. */
  const kept = async (): Promise<unknown> => {
    const answer = await suite.app.core.dispatch('app.lastPlace', {});
    return answer.ok ? answer.value : answer.error;
  };

  /** Records every view title drawn from the page's start, to tell that Home was never drawn. */
  async function watchTitles(): Promise<void> {
    await suite.page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { titles: string[] }).titles = seen;
      new MutationObserver(() => {
        const title = document.querySelector('[data-testid="view-title"]')?.textContent?.trim();
        if (title && seen.at(-1) !== title) seen.push(title);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
  }
  const titlesDrawn = (): Promise<string[]> =>
    suite.page.evaluate(() => (window as unknown as { titles: string[] }).titles);

  it('reopens on My Work with its rows, Home never drawn', async () => {
    const { page, ui } = suite;
    await ui.waitForTitle('Home');
    await ui.goToActionRequired();
    await page.getByTestId('inbox-row').first().waitFor();
    await expect.poll(kept).toEqual({ kind: 'mywork', tab: 'action' });

    await watchTitles();
    await page.reload();
    await ui.waitForTitle('My Work');
    await page.getByTestId('inbox-row').first().waitFor();
    expect(await page.getByTestId('nav-action-required').getAttribute('aria-current')).toBe('page');
    expect(await titlesDrawn()).not.toContain('Home');
    // Opened in place of Home: nothing to go back to.
    expect(await page.getByRole('button', { name: 'Back (Alt+Left)' }).isDisabled()).toBe(true);
    await screenshot(page, 'reopen-my-work');
  });

  it('reopens on a project with its rows', async () => {
    const { page, ui } = suite;
    await ui.openDemoProject('Support desk 1');
    await new TaskListPage(page).waitForRows();
    await expect.poll(kept).toMatchObject({ kind: 'project', layout: 'list' });

    await watchTitles();
    await page.reload();
    await ui.waitForTitle('Support desk 1');
    await new TaskListPage(page).waitForRows();
    expect(await titlesDrawn()).not.toContain('Home');
    await screenshot(page, 'reopen-project');
  });

  it('reopens on a project without its open task once that task is no longer held', async () => {
    const { page, ui } = suite;
    await ui.openDemoProject('Support desk 1');
    await new TaskListPage(page).waitForRows();
    await expect.poll(kept).toMatchObject({ kind: 'project', layout: 'list' });
    const { projectId } = (await kept()) as { projectId: string };
    const place = { kind: 'project', projectId, layout: 'list', taskId: 'no-such-task' };
    expect(await suite.app.core.dispatch('app.rememberPlace', place)).toEqual({ ok: true, value: null });
    // The core drops the task alone.
    expect(await kept()).toEqual({ kind: 'project', projectId, layout: 'list' });

    await watchTitles();
    await page.reload();
    await ui.waitForTitle('Support desk 1');
    await new TaskListPage(page).waitForRows();
    expect(await titlesDrawn()).not.toContain('Home');
    expect(await page.getByTestId('state-error').count()).toBe(0);
    await screenshot(page, 'reopen-project-without-its-task');
  });

  it('opens Home for a kept project no longer held, or a place that is not one', async () => {
    const { page, ui } = suite;
    // The core's check: a project no longer held is not given back.
    const gone = { kind: 'project', projectId: 'no-such-project', layout: 'list' };
    expect(await suite.app.core.dispatch('app.rememberPlace', gone)).toEqual({ ok: true, value: null });
    expect(await kept()).toBeNull();
    for (const place of [gone, { kind: 'dashboard', panel: 'left' }, { kind: 'mywork', tab: 'someday' }]) {
      expect(await suite.app.core.dispatch('app.rememberPlace', place)).toEqual({ ok: true, value: null });
      await page.reload();
      await ui.waitForTitle('Home');
      await page.getByTestId('app-info').waitFor();
      expect(await page.getByTestId('state-error').count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);
    }
    await screenshot(page, 'reopen-home-for-a-place-not-held');
  });
});
