import type { z } from 'zod';
import { appChannels } from './app';
import { calendarReadChannels } from './calendar';
import { crmReadChannels } from './crm';
import { orgReadChannels } from './org';
import { projectReadChannels } from './projects';
import { searchReadChannels } from './search';
import { syncChannels } from './sync';
import { taskReadChannels } from './tasks';
import { accountsChannels } from './accounts';
import { settingsChannels } from './settings';
import { tasksWriteChannels } from './tasks-write';
import { outboxChannels } from './outbox';
import { attachmentChannels } from './attachments';
import { projectsWriteChannels } from './projects-write';
import { calendarWriteChannels } from './calendar-write';
import { crmWriteChannels } from './crm-write';
import { linkChannels } from './links';
import { draftChannels } from './drafts';
import { printChannels } from './print';
import { inboxChannels } from './inbox';
import { updatesChannels } from './updates';
import { timeChannels, timerChannels } from './time';
import { pendingTransferChannels } from './pending-transfer';
import type { ChannelSpec } from './channel';

/**
 * Every IPC channel of the app, declared once. The preload's allowlist, the main side's
 * validation and the renderer's types all come from this object. Add a domain by spreading
 * its channel record here.
 */
export const channels = {
  ...appChannels,
  ...projectReadChannels,
  ...taskReadChannels,
  ...calendarReadChannels,
  ...crmReadChannels,
  ...orgReadChannels,
  ...searchReadChannels,
  ...syncChannels,
  ...accountsChannels,
  ...settingsChannels,
  ...tasksWriteChannels,
  ...outboxChannels,
  ...attachmentChannels,
  ...projectsWriteChannels,
  ...calendarWriteChannels,
  ...crmWriteChannels,
  ...linkChannels,
  ...draftChannels,
  ...printChannels,
  ...inboxChannels,
  ...updatesChannels,
  ...timeChannels,
  ...timerChannels,
  ...pendingTransferChannels,
} satisfies Record<string, ChannelSpec>;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
/** What the renderer passes (before schema defaults apply). */
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>;
/** What a handler receives (after validation). */
export type ChannelArg<C extends ChannelName> = z.output<Channels[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>;

export const channelNames = Object.keys(channels) as ChannelName[];

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(channels, name);
}
