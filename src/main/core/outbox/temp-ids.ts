import { tempIdsIn } from '../local-ids';
import type { Db } from './types';

/**
 * Whether a real id is one a create was acknowledged with (mapped from its temp id): a look-up
 * must not take it again for another create.
 */
export function mappedRealIds(db: Db): (realId: string) => boolean {
  const stmt = db.prepare('SELECT 1 FROM outbox_id_map WHERE real_id = ?').pluck();
  return (realId) => stmt.get(realId) !== undefined;
}

/**
 * The map of temp ids to real ids, and the remap of everything the outbox holds that names a
 * temp id: waiting payloads, undo records, chain keys, field claims, conflicts and the drafts
 * typed on the item (`outbox_drafts`, keyed `message:<id>`). Called in the
 * acknowledging transaction, together with the cache's own remap (rule 5).
 */
export class TempIdMap {
  readonly #stmts;

  constructor(db: Db) {
    this.#stmts = {
      put: db.prepare('INSERT OR REPLACE INTO outbox_id_map (temp_id, real_id, mapped_at) VALUES (?, ?, ?)'),
      get: db.prepare('SELECT real_id FROM outbox_id_map WHERE temp_id = ?').pluck(),
      payloads: db.prepare(
        `UPDATE outbox_entries SET payload = replace(payload, json_quote(@temp), json_quote(@real)),
           undo = replace(undo, json_quote(@temp), json_quote(@real))
         WHERE state <> 'done' AND (instr(payload, json_quote(@temp)) > 0 OR instr(undo, json_quote(@temp)) > 0)`,
      ),
      entityKeys: db.prepare(
        `UPDATE outbox_entries SET entity_key = substr(entity_key, 1, instr(entity_key, ':')) || @real
         WHERE state <> 'done' AND substr(entity_key, instr(entity_key, ':') + 1) = @temp`,
      ),
      // An entry may hold the real key already (a delete that named both the local item and the
      // service's copy a pull brought before the look-up matched them): it keeps that one.
      chainKeys: db.prepare(
        `UPDATE OR IGNORE outbox_entry_keys SET key = substr(key, 1, instr(key, ':')) || @real
         WHERE substr(key, instr(key, ':') + 1) = @temp`,
      ),
      leftKeys: db.prepare(`DELETE FROM outbox_entry_keys WHERE substr(key, instr(key, ':') + 1) = @temp`),
      claims: db.prepare('UPDATE outbox_field_claims SET entity_id = @real WHERE entity_id = @temp'),
      conflicts: db.prepare('UPDATE outbox_conflicts SET entity_id = @real WHERE entity_id = @temp'),
      // A draft typed on a task created here (`message:<local id>`) follows the task.
      drafts: db.prepare(
        `UPDATE OR REPLACE outbox_drafts SET key = substr(key, 1, instr(key, ':')) || @real
         WHERE substr(key, instr(key, ':') + 1) = @temp`,
      ),
    };
  }

  resolve(tempId: string): string | undefined {
    return (this.#stmts.get.get(tempId) as string | undefined) ?? undefined;
  }

  remap(tempId: string, realId: string, now: number): void {
    const s = this.#stmts;
    const ids = { temp: tempId, real: realId };
    s.put.run(tempId, realId, now);
    s.payloads.run(ids);
    s.entityKeys.run(ids);
    s.chainKeys.run(ids);
    s.leftKeys.run(ids);
    s.claims.run(ids);
    s.conflicts.run(ids);
    s.drafts.run(ids);
  }

  /**
   * Replaces every mapped temp id in a payload. Answers the temp ids still unmapped: the entry
   * must not be sent with them (its chain should have held it back until the create was acked).
   */
  resolveIn<P>(payload: P): { payload: P; unresolved: string[] } {
    const found = tempIdsIn(payload);
    if (!found.length) return { payload, unresolved: [] };
    let text = JSON.stringify(payload);
    const unresolved: string[] = [];
    for (const temp of found) {
      const real = this.resolve(temp);
      if (real === undefined) unresolved.push(temp);
      else text = text.split(JSON.stringify(temp)).join(JSON.stringify(real));
    }
    return { payload: JSON.parse(text) as P, unresolved };
  }
}
