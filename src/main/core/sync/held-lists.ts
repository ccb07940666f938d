import type { UnreadListAnswer } from '../api/client';
import type { ListTable } from '../cache/repos/list-answers';
import type { SyncDeps } from './context';

/** A list answer a pull read, and the key its record is kept under (its path, and query if any). */
export interface KeyedAnswer {
  key: string;
  answer: UnreadListAnswer<unknown>;
}

/**
 * The ids each of `answers` held, when the cache holds every one of them as stored (the same
 * fingerprint as last stored, its table not written since: `ListAnswers`) and no local change
 * waits in the outbox (one waiting is merged into every item, rule 7, as for the task lists).
 * Then none needs reading or storing: each is told as read (`held`). Undefined otherwise: the
 * caller reads them all and stores them.
 */
export function heldAnswers(deps: SyncDeps, answers: readonly KeyedAnswer[]): string[][] | undefined {
  if (deps.pending.openCount?.() !== 0) return undefined;
  const ids: string[][] = [];
  for (const { key, answer } of answers) {
    const held = deps.cache.listAnswers.held(key, answer.fingerprint);
    if (!held) return undefined;
    ids.push(held);
  }
  answers.forEach(({ answer }, i) => answer.held(ids[i]!.length));
  return ids;
}

/**
 * Called inside the transaction of a list's last write, after it: records each answer (its key,
 * fingerprint and the ids it held) as held when `asSent` (the table holds exactly what they
 * answered: every item read, stored as sent, nothing kept beside them) and no local change
 * waits; otherwise forgets them, so the next pull stores them again.
 */
export function recordAnswers(
  deps: SyncDeps,
  table: ListTable,
  answers: readonly { key: string; fingerprint: string; ids: readonly string[] }[],
  asSent: boolean,
): void {
  const { listAnswers } = deps.cache;
  const hold = asSent && deps.pending.openCount?.() === 0;
  for (const { key, fingerprint, ids } of answers) {
    if (hold) listAnswers.stored(key, table, fingerprint, ids);
    else listAnswers.forget(key);
  }
}
