import { z } from 'zod';
import { accountsEvents } from './accounts';
import { settingsEvents } from './settings';

/** What the native menus (and their shortcuts) ask the renderer to do. */
export const MenuCommand = z.enum(['new-task', 'search', 'sync-now', 'settings']);
export type MenuCommand = z.infer<typeof MenuCommand>;

/**
 * Push events from the core to the renderer, declared once. Names are `onDidX`-style.
 * Later domains add their events here.
 */
export const events = {
  'app.onDidLog': z.object({ level: z.enum(['info', 'warn', 'error']), message: z.string() }),
  'app.onDidRequestCommand': z.object({ command: MenuCommand }),
  ...accountsEvents,
  ...settingsEvents,
};

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const eventNames = Object.keys(events) as EventName[];

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}
