// Home shows the user's day: my late, today's and this week's tasks in their groups, today's
// events and the time logged, read from the cache; a task opens from the keyboard beside Home;
// with the service stopped, a reload still shows all of it.
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { dayString } from './support/demo';
import { SEED_IDS } from '../../src/server/seed/index';

interface ServiceTask {
  id: string;
  name: string;
  momentClosed: string | null;
}

const ME = SEED_IDS.users.admin;

describe('Home', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 860 } });
  const today = dayString(0);
  // The week runs Monday to Sunday: on a Sunday no day of it is left after today.
  const sunday = new Date().getDay() === 0;

  it('shows my late, today and this-week tasks, today’s events and time, and opens a task with the keyboard', async () => {
    const { app, page, ui } = suite;
    const mine = (await app.api<ServiceTask[]>(`/user/${ME}/assigned-tasks`)).filter((t) => !t.momentClosed);
    const [late, due, later] = mine;
    if (!late || !due || !later)
      throw new Error('the demo seed assigns fewer than three open tasks to the admin');
    // Named and dated here: late a month ago (the oldest of the seed's, so listed first).
    const dated = [
      [late, 'Home: the late one', dayString(-30)],
      [due, 'Home: due today', today],
      [later, 'Home: due tomorrow', dayString(1)],
    ] as const;
    for (const [task, title, deadline] of dated)
      await app.api(`/task/${task.id}/update`, { method: 'PUT', body: { userId: ME, title, deadline } });
    await app.api(`/task/${due.id}/time-report`, {
      method: 'POST',
      body: { userId: ME, reportedMinutes: 95, date: today },
    });
    await app.api('/events', {
      method: 'POST',
      body: {
        createdByUserId: ME,
        eventType: 'company-event',
        name: 'Home: all-hands',
        startDate: today,
        endDate: today,
      },
    });
    await page.getByTestId('sync-now').click();

    const group = (key: string) => page.getByTestId(`home-due-${key}`);
    await group('late')
      .getByRole('button', { name: /Home: the late one/ })
      .waitFor();
    await group('today')
      .getByRole('button', { name: /Home: due today/ })
      .waitFor();
    if (sunday) {
      // Tomorrow is next week's: not listed on Home.
      await expect(page.getByRole('button', { name: /Home: due tomorrow/ }).count()).resolves.toBe(0);
    } else {
      await group('later')
        .getByRole('button', { name: /Home: due tomorrow/ })
        .waitFor();
    }
    // Each group is a heading and a list a screen reader can follow.
    await expect(page.getByRole('heading', { name: 'Late and due soon', level: 2 }).count()).resolves.toBe(1);
    await expect(group('late').getByRole('heading', { level: 3 }).textContent()).resolves.toMatch(
      /^\s*Late\b/,
    );
    await expect(group('late').getByRole('list').count()).resolves.toBe(1);
    // The late one is the group's first row, its project and deadline beside its name.
    const first = group('late').getByTestId('home-due-row').first();
    await expect(first.innerText()).resolves.toContain('Home: the late one');
    await page
      .getByTestId('home-events')
      .getByRole('button', { name: /Home: all-hands/ })
      .first()
      .waitFor();
    await expect.poll(() => page.getByTestId('home-time-today').innerText()).toBe('1h 35m');
    await expect(page.getByTestId('app-info').innerText()).resolves.toMatch(/core on Node/);
    await screenshot(page, 'home-day');

    // The keyboard: one Tab stop on the rows, Down moves to the next, Enter opens it beside Home.
    await first.focus();
    await page.keyboard.press('ArrowDown');
    const second = group('late').getByTestId('home-due-row').nth(1);
    const secondId = (await second.count()) ? await second.getAttribute('data-task-id') : null;
    const movedTo = await page.evaluate(
      () => (document.activeElement as HTMLElement | null)?.dataset['taskId'],
    );
    // Down from the late group's first row reaches its second, or the next group's first.
    expect(movedTo).toBe(
      secondId ?? (await group('today').getByTestId('home-due-row').first().getAttribute('data-task-id')),
    );
    await page.keyboard.press('ArrowUp');
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['taskId']))
      .toBe(late.id);
    await expect(first.getAttribute('tabindex')).resolves.toBe('0');
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('detail-panel');
    await panel.getByText('Home: the late one').first().waitFor();
    await ui.waitForTitle('Home');
    await screenshot(page, 'home-task-open');
    await page.keyboard.press('Escape');

    // Today's event opens in the calendar.
    await page
      .getByTestId('home-events')
      .getByRole('button', { name: /Home: all-hands/ })
      .first()
      .click();
    await ui.waitForTitle('Calendar');
    await page.getByRole('dialog').getByText('Home: all-hands').first().waitFor();
    await page.getByTestId('event-close').click();
    await ui.back();
    await ui.back();
    await ui.waitForTitle('Home');
  });

  it("goes Home from the sidebar's first link, marked as the place shown, by click and by keyboard", async () => {
    const { page, ui } = suite;
    const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
    const home = page.getByTestId('nav-home');
    // The first of the sidebar's links, before My Work's.
    await expect(sidebar.locator('button.link').first().getAttribute('data-testid')).resolves.toBe(
      'nav-home',
    );
    await page.getByTestId('nav-assigned').click();
    await ui.waitForTitle('My Work');
    await expect(home.getAttribute('aria-current')).resolves.toBeNull();
    await home.click();
    await ui.waitForTitle('Home');
    await expect(home.getAttribute('aria-current')).resolves.toBe('page');
    await expect(page.getByTestId('nav-assigned').getAttribute('aria-current')).resolves.toBeNull();
    await screenshot(page, 'home-sidebar');
    // The keyboard: a Tab stop like the others, Enter goes.
    await page.getByTestId('nav-calendar').click();
    await ui.waitForTitle('Calendar');
    await home.focus();
    await page.keyboard.press('Enter');
    await ui.waitForTitle('Home');
    await expect(home.getAttribute('aria-current')).resolves.toBe('page');
  });

  it('shows everything from the cache with the service stopped, after a reload', async () => {
    const { app, page, ui } = suite;
    await app.stopService();
    await page.getByTestId('sync-now').click();
    await ui.waitForOnline(false);
    await page.reload();
    await page.getByRole('navigation', { name: 'Sidebar' }).waitFor();
    await page
      .getByTestId('home-due-late')
      .getByRole('button', { name: /Home: the late one/ })
      .waitFor();
    await page
      .getByTestId('home-due-today')
      .getByRole('button', { name: /Home: due today/ })
      .waitFor();
    await page
      .getByTestId('home-events')
      .getByRole('button', { name: /Home: all-hands/ })
      .first()
      .waitFor();
    await expect.poll(() => page.getByTestId('home-time-today').innerText()).toBe('1h 35m');
    await ui.waitForOnline(false);
    await screenshot(page, 'home-offline');
    await app.restartService();
  });
});
