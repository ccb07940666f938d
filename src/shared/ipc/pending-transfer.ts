import { z } from 'zod';
import { channel } from './channel';
import { lazySchema } from '../lazy-schema';

/**
 * A file of unsent changes ("Export pending changes" in Changes): readable JSON a person can
 * open, keep, or import again into the same account (to bring back changes lost with a
 * damaged or deleted outbox file). Each change is the outbox entry's kind and payload as
 * stored, with its local ids.
 */
export const PENDING_CHANGES_FORMAT = 'workdesk-pending-changes';

export const PendingChange = lazySchema(() =>
  z
    .object({
      kind: z.string().min(1).max(100),
      /** What the change does, in words, for a person reading the file. */
      label: z.string().max(1000),
      state: z.enum(['pending', 'in_flight', 'failed', 'stuck']),
      createdAt: z.number().int(),
      errorMessage: z.string().nullable(),
      payload: z.unknown(),
    })
    .strict(),
);
export type PendingChange = z.infer<typeof PendingChange>;

export const PendingChangesFile = lazySchema(() =>
  z
    .object({
      format: z.literal(PENDING_CHANGES_FORMAT, { error: `must be "${PENDING_CHANGES_FORMAT}"` }),
      version: z.literal(1, { error: 'must be 1 (this build reads version 1)' }),
      exportedAt: z.string(),
      /** The account the changes belong to: an import elsewhere is refused. */
      account: z.object({ key: z.string().min(1), baseUrl: z.string(), userId: z.string() }).strict(),
      changes: z.array(PendingChange).max(100_000),
    })
    .strict(),
);
export type PendingChangesFile = z.infer<typeof PendingChangesFile>;

export const ImportResult = lazySchema(() =>
  z.object({
    imported: z.number().int(),
    /** Already waiting here (or already sent), so not queued twice. */
    skipped: z.number().int(),
    /** Changes this build could not queue, with the reason. */
    refused: z.array(z.object({ label: z.string(), reason: z.string() })),
  }),
);
export type ImportResult = z.infer<typeof ImportResult>;

export const pendingTransferChannels = {
  /** Every change not yet acknowledged, oldest first, as a `PendingChangesFile`. */
  'outbox.export': channel(
    () => z.object({}).strict(),
    () => PendingChangesFile,
  ),
  /**
   * Queues the changes of an exported file again, in order, each applied as a new local change.
   * A file of another account answers `conflict` naming `file.account`; a malformed one
   * `invalid-argument` naming the field. Changes already waiting (or whose create was already
   * acknowledged) are skipped.
   */
  'outbox.import': channel(
    () => z.object({ file: PendingChangesFile }).strict(),
    () => ImportResult,
  ),
};
