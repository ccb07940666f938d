// The messages between a host (the Electron main process, the web host) and the core's own
// process. Both sides validate what they receive: a message that does not fit is logged with
// the field that is wrong and dropped; a call it belonged to is answered with an error.
import { z } from 'zod';
import { describeZodError } from '../../../shared/errors';
import { DataNotice } from '../../../shared/ipc/app';
import { channels } from '../../../shared/ipc/contract';

/** One end of the channel between the host and the core's process. */
export interface Link {
  send(message: HostMessage | CoreMessage): void;
  onMessage(listener: (message: unknown) => void): void;
}

/** The host's end: it also sees the child leave, and can end it. */
export interface ChildLink extends Link {
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

const Id = z.number().int().nonnegative();

const IpcErrorShape = z.object({
  type: z.enum([
    'invalid-argument',
    'unknown-channel',
    'not-found',
    'conflict',
    'offline',
    'unauthorized',
    'rejected',
    'internal',
  ]),
  message: z.string(),
  field: z.string().optional(),
});

/** An `IpcResult` as it crosses the channel (its value is the channel's, checked by the core). */
export const WireResult = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: IpcErrorShape }),
]);

/** What the core's process needs to start the host session. */
export const CoreStart = z.object({
  dataDir: z.string().min(1),
  version: z.string(),
  transport: z.enum(['electron', 'web']),
  /** The host's secret store, as it is now: the child keeps a copy and reports each change back. */
  secrets: z.object({
    protection: z.enum(['os', 'basic-text', 'file-permissions']),
    entries: z.array(z.tuple([z.string(), z.string()])),
    notices: z.array(DataNotice),
  }),
});
export type CoreStart = z.infer<typeof CoreStart>;

/** Host → core. */
export const HostMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), start: CoreStart }),
  z.object({ type: z.literal('call'), id: Id, channel: z.string(), arg: z.unknown() }),
  z.object({ type: z.literal('stage'), id: Id, paths: z.array(z.string()) }),
  /** The path of a received file on disk, made local first (the shell opens or copies it). */
  z.object({ type: z.literal('localPath'), id: Id, arg: channels['attachments.fetch'].input }),
  z.object({ type: z.literal('close'), id: Id }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

/** The narrow requests the core makes of its host: the keychain and system notifications. */
export const HostRequest = z.discriminatedUnion('op', [
  z.object({ op: z.literal('secret.set'), key: z.string(), value: z.string() }),
  z.object({ op: z.literal('secret.delete'), key: z.string() }),
  z.object({ op: z.literal('secret.remember'), on: z.boolean() }),
  z.object({
    op: z.literal('notify'),
    title: z.string(),
    body: z.string(),
    taskId: z.string().optional(),
  }),
]);
export type HostRequest = z.infer<typeof HostRequest>;

/** Core → host. */
export const CoreMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('failed'), message: z.string() }),
  z.object({ type: z.literal('result'), id: Id, result: WireResult }),
  z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown() }),
  z.object({ type: z.literal('host'), request: HostRequest }),
]);
export type CoreMessage = z.infer<typeof CoreMessage>;

/** Parses a received message, or says which field is wrong. */
export function readMessage<T>(
  schema: z.ZodType<T>,
  raw: unknown,
): { ok: true; message: T } | { ok: false; error: string } {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  return { ok: false, error: describeZodError(parsed.error, 'message').message };
}
