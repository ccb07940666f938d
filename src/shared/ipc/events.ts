import { z } from 'zod';

/**
 * Push events from the core to the renderer, declared once. Names are `onDidX`-style.
 * Later domains add their events here.
 */
export const events = {
  'app.onDidLog': z.object({ level: z.enum(['info', 'warn', 'error']), message: z.string() }),
};

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const eventNames = Object.keys(events) as EventName[];

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}
