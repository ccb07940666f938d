import type { z } from 'zod';
import { appChannels } from './app';
import { calendarReadChannels, calendarResources } from './calendar';
import { crmReadChannels, crmResources } from './crm';
import { orgReadChannels, orgResources } from './org';
import { projectReadChannels, projectResources } from './projects';
import { searchReadChannels } from './search';
import { syncChannels } from './sync';
import { taskReadChannels, taskResources } from './tasks';
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
import { timeChannels, timeResources, timerChannels } from './time';
import { pendingTransferChannels } from './pending-transfer';
import type { ChannelDomain } from './channel';

/**
 * Every IPC domain of the app, each a record of its channels declared once in its own module
 * (`./tasks.ts`, `./time.ts`, …), with the resources the domain is the home of, declared in the
 * same module (`RESOURCES` of `../entities.ts` gathers them). The preload's allowlist, the main
 * side's validation and the renderer's types all come from them. A new domain adds its module
 * and one line here; a channel (or a resource) two domains declare does not compile
 * (`ChannelsDeclaredTwice`).
 */
export const CHANNEL_DOMAINS = [
  { channels: appChannels },
  { channels: projectReadChannels, resources: projectResources },
  { channels: taskReadChannels, resources: taskResources },
  { channels: calendarReadChannels, resources: calendarResources },
  { channels: crmReadChannels, resources: crmResources },
  { channels: orgReadChannels, resources: orgResources },
  { channels: searchReadChannels },
  { channels: syncChannels },
  { channels: accountsChannels },
  { channels: settingsChannels },
  { channels: tasksWriteChannels },
  { channels: outboxChannels },
  { channels: attachmentChannels },
  { channels: projectsWriteChannels },
  { channels: calendarWriteChannels },
  { channels: crmWriteChannels },
  { channels: linkChannels },
  { channels: draftChannels },
  { channels: printChannels },
  { channels: inboxChannels },
  { channels: updatesChannels },
  { channels: timeChannels, resources: timeResources },
  { channels: timerChannels },
  { channels: pendingTransferChannels },
] as const satisfies readonly ChannelDomain[];

/**
 * The names (keys) more than one record of a list declares: a channel two domains declare, a
 * resource two domains or two core modules name.
 */
export type DeclaredTwice<Ds extends readonly object[]> = Ds extends readonly [
  infer First,
  ...infer Rest extends readonly object[],
]
  ? (keyof First & KeysOfAny<Rest[number]>) | DeclaredTwice<Rest>
  : never;
/** The channel names of a list of domains' channel records that more than one of them declares. */
export type ChannelsDeclaredTwice<Ds extends readonly object[]> = DeclaredTwice<Ds>;
type KeysOfAny<U> = U extends unknown ? keyof U : never;
/** One object with every member of a union of records. */
export type Merged<U> = (U extends unknown ? (domain: U) => void : never) extends (domain: infer I) => void
  ? I
  : never;

/** Each domain's channel record, in the order of the domains. */
export type DomainChannels<Ds extends readonly ChannelDomain[]> = { [I in keyof Ds]: Ds[I]['channels'] };
/** Each domain's resources (none: an empty record), in the order of the domains. */
export type DomainResources<Ds extends readonly ChannelDomain[]> = {
  [I in keyof Ds]: Ds[I] extends { resources: infer R extends object } ? R : Record<never, never>;
};

/** Compiles only when no channel is declared by two domains (the later would replace the first). */
const noChannelDeclaredTwice: Record<
  ChannelsDeclaredTwice<DomainChannels<typeof CHANNEL_DOMAINS>>,
  never
> = {};
void noChannelDeclaredTwice;

/** Every IPC channel of the app, by name. */
export const channels = Object.assign({}, ...CHANNEL_DOMAINS.map((d) => d.channels)) as Merged<
  (typeof CHANNEL_DOMAINS)[number]['channels']
>;

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
