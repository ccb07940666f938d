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
 * Every IPC domain of the app, each a record of its channels declared once in its own module
 * (`./tasks.ts`, `./time.ts`, …). The preload's allowlist, the main side's validation and the
 * renderer's types all come from them. A new domain adds its module and one line here; a channel
 * two domains declare does not compile (`ChannelsDeclaredTwice`).
 */
export const CHANNEL_DOMAINS = [
  appChannels,
  projectReadChannels,
  taskReadChannels,
  calendarReadChannels,
  crmReadChannels,
  orgReadChannels,
  searchReadChannels,
  syncChannels,
  accountsChannels,
  settingsChannels,
  tasksWriteChannels,
  outboxChannels,
  attachmentChannels,
  projectsWriteChannels,
  calendarWriteChannels,
  crmWriteChannels,
  linkChannels,
  draftChannels,
  printChannels,
  inboxChannels,
  updatesChannels,
  timeChannels,
  timerChannels,
  pendingTransferChannels,
] as const satisfies readonly Record<string, ChannelSpec>[];

/** The channel names of a list of domains that more than one of them declares. */
export type ChannelsDeclaredTwice<Ds extends readonly object[]> = Ds extends readonly [
  infer First,
  ...infer Rest extends readonly object[],
]
  ? (keyof First & KeysOfAny<Rest[number]>) | ChannelsDeclaredTwice<Rest>
  : never;
type KeysOfAny<U> = U extends unknown ? keyof U : never;
type Merged<U> = (U extends unknown ? (domain: U) => void : never) extends (domain: infer I) => void
  ? I
  : never;

/** Compiles only when no channel is declared by two domains (the later would replace the first). */
const noChannelDeclaredTwice: Record<ChannelsDeclaredTwice<typeof CHANNEL_DOMAINS>, never> = {};
void noChannelDeclaredTwice;

/** Every IPC channel of the app, by name. */
export const channels = Object.assign({}, ...CHANNEL_DOMAINS) as Merged<(typeof CHANNEL_DOMAINS)[number]>;

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

/**
 * The channels the Electron shell answers itself (`src/main/index.ts`: files opened or saved
 * through the desktop, print to PDF, links the OS handed over), not the core; the web host has
 * no answer for them.
 */
export const SHELL_CHANNELS = [
  'attachments.openExternal',
  'attachments.saveAs',
  'links.takePending',
  'print.savePdf',
] as const satisfies readonly ChannelName[];
export type ShellChannel = (typeof SHELL_CHANNELS)[number];
