/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';

/** The calendar: month grid, agenda, type filters, new event and event details. */
export class CalendarPage {
  constructor(readonly page: Page) {}

  get grid(): Locator {
    return this.page.getByTestId('month-grid');
  }
  get chips(): Locator {
    return this.page.getByTestId('event-chip');
  }
  get agendaItems(): Locator {
    return this.page.getByTestId('agenda-item');
  }
  get newEvent(): Locator {
    return this.page.getByTestId('new-event');
  }
  get detail(): Locator {
    return this.page.getByTestId('event-detail');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-calendar').click();
    await this.grid.waitFor();
  }
  filter(type: string): Locator {
    return this.page.getByTestId(`type-filter-${type}`);
  }
  /** Event types of the chips drawn now. */
  async chipTypes(): Promise<string[]> {
    return this.chips.evaluateAll((els) => els.map((el) => el.getAttribute('data-type') ?? ''));
  }
}
