import {
  PENDING_CHANGES_FORMAT,
  type PendingChange,
  type PendingChangesFile,
} from '../../../shared/ipc/pending-transfer';
import { HandlerError } from '../errors';
import type { AccountOutbox } from '../outbox/account-outbox';
import type { HandlerMap } from './types';

/** Which account a file of changes belongs to (`key` names its files; see `outboxFileFor`). */
export interface TransferAccount {
  key: string;
  baseUrl: string;
  userId: string;
}

const identity = (kind: string, payload: unknown): string => `${kind}\n${JSON.stringify(payload)}`;

/** The local id a create makes, when the payload is a create's. */
function createdTempIdOf(payload: unknown): string | undefined {
  const tempId = (payload as { tempId?: unknown } | null)?.tempId;
  return typeof tempId === 'string' ? tempId : undefined;
}

/**
 * "Export pending changes" and its import. The export is every change not yet acknowledged, as
 * stored. The import queues each change of a file of the same account again through the
 * outbox's normal write (parsed, applied locally, in order), skipping those already waiting
 * here and creates already acknowledged (their local id has a real one): the point is to bring
 * back changes lost with a damaged outbox file, not to send anything twice.
 */
export function pendingTransferHandlers({
  outbox: w,
  account,
  clock = () => new Date(),
}: {
  outbox: AccountOutbox;
  account: TransferAccount;
  clock?: () => Date;
}): HandlerMap<'outbox.export' | 'outbox.import'> {
  return {
    'outbox.export': (): PendingChangesFile => ({
      format: PENDING_CHANGES_FORMAT,
      version: 1,
      exportedAt: clock().toISOString(),
      account,
      changes: w.outbox
        .entries()
        .filter((e) => e.state !== 'done')
        .map((e): PendingChange => ({
          kind: e.kind,
          label: w.outbox.describe(e),
          state: e.state as PendingChange['state'],
          createdAt: e.createdAt,
          errorMessage: e.errorMessage,
          payload: e.payload,
        })),
    }),
    'outbox.import': ({ file }) => {
      if (file.account.key !== account.key) {
        throw new HandlerError(
          'conflict',
          `This file holds the changes of user ${file.account.userId} at ${file.account.baseUrl}, not of this account (user ${account.userId} at ${account.baseUrl}); open that account to import it`,
          'file.account',
        );
      }
      const known = new Set([
        ...w.outbox.entries().map((e) => identity(e.kind, e.payload)),
        ...w.outbox.store.list('done').map((e) => identity(e.kind, e.payload)),
      ]);
      let imported = 0;
      let skipped = 0;
      const refused: { label: string; reason: string }[] = [];
      for (const change of file.changes) {
        const tempId = createdTempIdOf(change.payload);
        if (
          known.has(identity(change.kind, change.payload)) ||
          (tempId && w.outbox.realIdOf(tempId) !== tempId)
        ) {
          skipped++;
          continue;
        }
        try {
          w.write(change.kind, change.payload);
          known.add(identity(change.kind, change.payload));
          imported++;
        } catch (err) {
          refused.push({ label: change.label, reason: err instanceof Error ? err.message : String(err) });
        }
      }
      return { imported, skipped, refused };
    },
  };
}
