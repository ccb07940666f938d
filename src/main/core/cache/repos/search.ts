import type { SearchHit } from '../../../../shared/ipc/search';
import {
  SNIPPET_HIT_END,
  SNIPPET_HIT_START,
  TYPO_MIN_LENGTH,
  foldWord,
  parseTaskRefs,
  plainSnippet,
  typoMatches,
  type TaskRef,
} from '../../../../shared/search-query';
import type { CacheDb } from '../db';
import { statementCache } from './statements';
import { foldedWords, matchWords, termsOf, unindexedSnippet } from './search-unindexed';

type Kind = SearchHit['kind'];

/** The full-text tables the search reads; each has a word list (cache migration 008). */
type FtsTable =
  | 'tasks_fts'
  | 'projects_fts'
  | 'messages_fts'
  | 'documents_fts'
  | 'crm_contacts_fts'
  | 'crm_accounts_fts'
  | 'calendar_events_fts';

/** The fts5vocab table listing the distinct words of one full-text table. */
const vocabularyTable = (fts: FtsTable): string => `${fts}_vocab`;

const SNIPPET = (fts: string) => `snippet(${fts}, -1, '${SNIPPET_HIT_START}', '${SNIPPET_HIT_END}', '…', 12)`;

/** Per kind: its FTS table, and the query of its hits (`@q` an FTS query). */
const SOURCES: Record<Kind, { fts: FtsTable; sql: string }> = {
  task: {
    // A task's name weighs more than its custom-field values.
    fts: 'tasks_fts',
    sql: `SELECT 'task' AS kind, s.id, s.name AS title, ${SNIPPET('tasks_fts')} AS snippet,
            s.id AS taskId, s.project_id AS projectId, s.short_id AS shortId, NULL AS date,
            bm25(tasks_fts, 4.0, 1.0) AS rank
          FROM tasks_fts JOIN tasks s ON s.rowid = tasks_fts.rowid WHERE tasks_fts MATCH @q
            AND tasks_fts.rowid NOT IN (SELECT task_rowid FROM tasks_fts_pending)`,
  },
  project: {
    // A project or folder: its name weighs more than words of its description.
    fts: 'projects_fts',
    sql: `SELECT 'project' AS kind, s.id, s.name AS title, ${SNIPPET('projects_fts')} AS snippet,
            NULL AS taskId, s.id AS projectId, NULL AS shortId, NULL AS date, bm25(projects_fts, 4.0, 1.0) AS rank
          FROM projects_fts JOIN projects s ON s.rowid = projects_fts.rowid WHERE projects_fts MATCH @q`,
  },
  message: {
    fts: 'messages_fts',
    sql: `SELECT 'message' AS kind, s.id, coalesce(t.name, '') AS title, ${SNIPPET('messages_fts')} AS snippet,
            s.task_id AS taskId, t.project_id AS projectId, t.short_id AS shortId, s.date_created AS date,
            bm25(messages_fts) AS rank
          FROM messages_fts JOIN messages s ON s.rowid = messages_fts.rowid LEFT JOIN tasks t ON t.id = s.task_id
          WHERE messages_fts MATCH @q`,
  },
  document: {
    fts: 'documents_fts',
    sql: `SELECT 'document' AS kind, s.id, s.name AS title, ${SNIPPET('documents_fts')} AS snippet,
            NULL AS taskId, s.project_id AS projectId, NULL AS shortId, NULL AS date, bm25(documents_fts) AS rank
          FROM documents_fts JOIN documents s ON s.rowid = documents_fts.rowid WHERE documents_fts MATCH @q`,
  },
  event: {
    fts: 'calendar_events_fts',
    sql: `SELECT 'event' AS kind, s.id, s.name AS title, ${SNIPPET('calendar_events_fts')} AS snippet,
            NULL AS taskId, s.project_id AS projectId, NULL AS shortId, s.start_date AS date,
            bm25(calendar_events_fts, 4.0, 1.0) AS rank
          FROM calendar_events_fts JOIN calendar_events s ON s.rowid = calendar_events_fts.rowid
          WHERE calendar_events_fts MATCH @q`,
  },
  contact: {
    fts: 'crm_contacts_fts',
    sql: `SELECT 'contact' AS kind, s.id, trim(s.first_name || ' ' || s.last_name) AS title,
            ${SNIPPET('crm_contacts_fts')} AS snippet, NULL AS taskId, NULL AS projectId,
            NULL AS shortId, NULL AS date, bm25(crm_contacts_fts) AS rank
          FROM crm_contacts_fts JOIN crm_contacts s ON s.rowid = crm_contacts_fts.rowid
          WHERE crm_contacts_fts MATCH @q AND s.is_deleted = 0`,
  },
  account: {
    fts: 'crm_accounts_fts',
    sql: `SELECT 'account' AS kind, s.id, s.name AS title, ${SNIPPET('crm_accounts_fts')} AS snippet,
            NULL AS taskId, NULL AS projectId, NULL AS shortId, NULL AS date, bm25(crm_accounts_fts) AS rank
          FROM crm_accounts_fts JOIN crm_accounts s ON s.rowid = crm_accounts_fts.rowid
          WHERE crm_accounts_fts MATCH @q AND s.is_deleted = 0`,
  },
};

/** The words of a search text, as the index splits them. */
function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/**
 * Turns what a user typed into an FTS5 query: each word becomes a quoted prefix term, so
 * punctuation and FTS operators in the input are matched literally and never a syntax error.
 * `alternatives` gives, per folded word, indexed words that match it with one typo; such a word
 * becomes a choice between its prefix and those words.
 */
export function toFtsQuery(
  text: string,
  alternatives?: ReadonlyMap<string, readonly string[]>,
): string | null {
  const words = wordsOf(text);
  if (!words.length) return null;
  return (
    words
      .map((w) => {
        const others = alternatives?.get(foldWord(w)) ?? [];
        const own = `"${w}"*`;
        return others.length ? `(${[own, ...others.map((t) => `"${t}"`)].join(' OR ')})` : own;
      })
      // AND written out: FTS5 reads two terms side by side as both only when neither is in
      // parentheses (`("a"* OR "b") "c"*` is a syntax error).
      .join(' AND ')
  );
}

/**
 * The query over the given kinds, the given project's items first (`@near`, may be null), then
 * best first; parameters `@q` (an FTS query), `@near` and `@limit`.
 */
export function searchSql(kinds: readonly Kind[]): string {
  return `SELECT * FROM (${kinds.map((k) => SOURCES[k].sql).join(' UNION ALL ')})
    ORDER BY (@near IS NOT NULL AND projectId IS @near) DESC, rank LIMIT @limit`;
}

/**
 * The text of a task's custom-field values (strings and numbers, nested lists too), as the task
 * index holds it beside the name: the one live copy of migration 008's expression.
 */
const FIELD_TEXT = `CASE WHEN json_valid(t.custom_fields) THEN (SELECT group_concat(atom, ' ')
  FROM json_tree(t.custom_fields) WHERE type IN ('text', 'integer', 'real')) END`;

/** The task rowids waiting for the index, lowest first, at most `@n` (cache migration 019). */
const NEXT_PENDING = 'SELECT task_rowid FROM tasks_fts_pending ORDER BY task_rowid LIMIT @n';

/**
 * Tasks waiting for the index that a search indexes before it runs, at most: a local edit or a
 * pull's few tasks are then searched by the index itself (its ranking, its typo words). More
 * than this (a first sync's thousands, between its slices of indexing) are matched directly
 * (`search-unindexed.ts`); their words are kept between searches (`WaitingText`).
 */
export const INDEX_BEFORE_SEARCH_MAX = 200;

/** Indexed words tried per typed word for its typo matches, at most. */
const MAX_TYPO_TERMS = 12;

type Row = SearchHit & { rank: number };

/** A task waiting for the index, as the direct search reads it. */
interface WaitingRow {
  rowid: number;
  projectId: string;
  text: WaitingText;
}

/**
 * A waiting task's text as a search last read it, and its words folded: kept between searches
 * (the palette searches on each keystroke) and used again while the task's name and custom
 * fields are as they were then.
 */
interface WaitingText {
  name: string;
  customFields: string | null;
  fields: string | null;
  words: [name: string[], fields: string[]];
}

const TASK_BY_REF = `SELECT t.id, t.name, t.short_id AS shortId, t.project_id AS projectId, coalesce(p.name, '') AS projectName
  FROM tasks t LEFT JOIN projects p ON p.id = t.project_id`;

export type SearchRepo = ReturnType<typeof createSearchRepo>;

export function createSearchRepo(db: CacheDb) {
  const stmt = statementCache(db);

  /** Tasks a number or link names, the given project's first. */
  function tasksByRef(refs: readonly TaskRef[], near: string | null, text: string): SearchHit[] {
    const found = new Map<string, SearchHit>();
    // "Mobile app 5" is a project's name before it is task 5 of a mobile app: a bare number
    // among words that all name a project is not taken for a task's number.
    const namesProject = (): boolean => {
      const q = toFtsQuery(text);
      return (
        !!q &&
        stmt('SELECT 1 FROM projects_fts WHERE projects_fts MATCH ? LIMIT 1').get(`name : (${q})`) !==
          undefined
      );
    };
    for (const ref of refs) {
      if (ref.kind === 'number' && !ref.hash && ref.rest.length && namesProject()) continue;
      const rows = (
        ref.kind === 'link' && ref.taskId
          ? stmt(`${TASK_BY_REF} WHERE t.id = ?`).all(ref.taskId)
          : stmt(`${TASK_BY_REF} WHERE t.short_id = ? COLLATE NOCASE`).all(ref.shortId)
      ) as { id: string; name: string; shortId: string; projectId: string; projectName: string }[];
      for (const row of rows) {
        // "website 353": the other words name the task's project (or are words of its name).
        const rest = ref.kind === 'number' ? ref.rest.flatMap(wordsOf).map(foldWord) : [];
        const known = wordsOf(`${row.projectName} ${row.name}`).map(foldWord);
        if (!rest.every((word) => known.some((k) => k.startsWith(word)))) continue;
        found.set(row.id, {
          kind: 'task',
          id: row.id,
          title: row.name,
          snippet: row.name,
          taskId: row.id,
          projectId: row.projectId,
          shortId: row.shortId,
          date: null,
        });
      }
    }
    return [...found.values()].sort(
      (a, b) => Number(b.projectId === near && near !== null) - Number(a.projectId === near && near !== null),
    );
  }

  /** Indexed words of the kinds' tables within one typo of each long typed word. */
  function typoAlternatives(text: string, kinds: readonly Kind[]): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const word of new Set(wordsOf(text).map(foldWord))) {
      // Five letters or more; a number is matched as typed.
      if (word.length < TYPO_MIN_LENGTH || /\d/.test(word)) continue;
      const terms = new Set<string>();
      for (const kind of kinds) {
        // The first letter is taken as typed (a typo there is rarely one, as Meilisearch also
        // holds), so only the words under it are read: a range of the index, not all of it.
        const first = word.slice(0, 1);
        const rows = stmt(
          `SELECT term FROM ${vocabularyTable(SOURCES[kind].fts)} WHERE term >= ? AND term < ? AND length(term) >= ?`,
        )
          .pluck()
          .all(first, `${first}\u{10FFFF}`, word.length - 1) as string[];
        for (const term of rows) if (typoMatches(word, term)) terms.add(term);
      }
      if (terms.size) out.set(word, [...terms].slice(0, MAX_TYPO_TERMS));
    }
    return out;
  }

  function run(q: string, kinds: readonly Kind[], limit: number, near: string | null): SearchHit[] {
    const rows = stmt(searchSql(kinds)).all({ q, limit, near }) as Row[];
    return rows.map(({ rank: _rank, ...hit }) => ({ ...hit, snippet: plainSnippet(hit.snippet) }));
  }

  const pendingCount = () => stmt('SELECT count(*) FROM tasks_fts_pending').pluck().get() as number;

  /**
   * Indexes at most `n` of the tasks waiting for the index (their text as it is now; a task
   * deleted meanwhile left the waiting list with its delete), in one transaction. The index's
   * entry of a task written again since it was indexed holds its old text: it is replaced.
   * Returns how many were indexed.
   */
  function indexPending(n: number): number {
    return db.transaction(() => {
      stmt(`DELETE FROM tasks_fts WHERE rowid IN (${NEXT_PENDING})`).run({ n });
      stmt(
        `INSERT INTO tasks_fts (rowid, name, fields) SELECT t.rowid, t.name, ${FIELD_TEXT}
         FROM tasks t WHERE t.rowid IN (${NEXT_PENDING})`,
      ).run({ n });
      return stmt(`DELETE FROM tasks_fts_pending WHERE task_rowid IN (${NEXT_PENDING})`).run({ n }).changes;
    })();
  }

  /** The waiting tasks' text by rowid, as the last direct search read it (`WaitingText`). */
  let waitingTexts = new Map<number, WaitingText>();
  /** The last read of the waiting tasks, and the cache's write count then (`readWaitingTexts`). */
  let lastRead: { stamp: string; rows: WaitingRow[] } | undefined;

  /**
   * The text of every task waiting for the index, by rowid: its custom-field text is built (in
   * SQL, as the index builds it) only for a task new to the last search's read or written since.
   */
  function readWaitingTexts(): WaitingRow[] {
    // Nothing written since the last read (by this connection, `total_changes()`, or another,
    // `data_version`): the waiting tasks are as read then (typing in the palette, no sync).
    const stamp = `${stmt('PRAGMA data_version').pluck().get() as number}:${stmt('SELECT total_changes()').pluck().get() as number}`;
    if (lastRead?.stamp === stamp) return lastRead.rows;
    const rows = stmt(
      `SELECT t.rowid, t.name, t.project_id, t.custom_fields
       FROM tasks_fts_pending p JOIN tasks t ON t.rowid = p.task_rowid`,
    )
      .raw(true)
      .all() as [rowid: number, name: string, projectId: string, customFields: string | null][];
    const known = new Map<number, WaitingText>();
    const fresh: number[] = [];
    for (const [rowid, name, , customFields] of rows) {
      const before = waitingTexts.get(rowid);
      if (before && before.name === name && before.customFields === customFields) known.set(rowid, before);
      else if (customFields !== null && customFields !== '{}') fresh.push(rowid);
    }
    const fieldTexts = new Map(
      fresh.length
        ? (stmt(
            `SELECT t.rowid, ${FIELD_TEXT} FROM tasks t WHERE t.rowid IN (SELECT value FROM json_each(?))`,
          )
            .raw(true)
            .all(JSON.stringify(fresh)) as [number, string | null][])
        : [],
    );
    const out = rows.map(([rowid, name, projectId, customFields]): WaitingRow => {
      let text = known.get(rowid);
      if (!text) {
        const fields = fieldTexts.get(rowid) ?? null;
        text = { name, customFields, fields, words: [foldedWords(name), foldedWords(fields)] };
        known.set(rowid, text);
      }
      return { rowid, projectId, text };
    });
    // Only the tasks still waiting are kept: an indexed or deleted one is dropped.
    waitingTexts = known;
    lastRead = { stamp, rows: out };
    return out;
  }

  /**
   * The tasks waiting for the index that match `words` (see `search-unindexed.ts`): those that
   * match as typed, and those that match with a typo forgiven, each `near`'s first, at most
   * `limit` of each. One read of the waiting rows serves both rounds of a search.
   */
  function unindexedTasks(
    words: readonly string[],
    near: string | null,
    limit: number,
  ): Record<'exact' | 'typo', SearchHit[]> {
    const terms = termsOf(words);
    const rows = readWaitingTexts();
    const found = { exact: [] as typeof rows, typo: [] as typeof rows };
    for (const row of rows) {
      const match = matchWords(row.text.words, terms);
      if (match) found[match].push(row);
    }
    const numbers = stmt('SELECT id, short_id AS shortId FROM tasks WHERE rowid = ?');
    const hits = (matched: typeof rows, typos: boolean): SearchHit[] =>
      [...matched.filter((r) => r.projectId === near), ...matched.filter((r) => r.projectId !== near)]
        .slice(0, limit)
        .map(({ rowid, projectId, text: { name, fields } }) => {
          const { id, shortId } = numbers.get(rowid) as { id: string; shortId: string };
          const snippet = unindexedSnippet({ name, fields }, terms, typos);
          return { kind: 'task', id, title: name, snippet, taskId: id, projectId, shortId, date: null };
        });
    return { exact: hits(found.exact, false), typo: hits(found.typo, true) };
  }

  /**
   * Indexes the waiting tasks before a search when they are few (`INDEX_BEFORE_SEARCH_MAX` at
   * most); whether any are left for the direct search. A refused write (the cache read-only, the
   * disk full) leaves them all to the direct search: a search never fails for want of writing.
   */
  function indexBeforeSearch(waiting: number): boolean {
    if (!waiting) return false;
    if (waiting > INDEX_BEFORE_SEARCH_MAX) return true;
    try {
      indexPending(waiting);
    } catch {
      return true;
    }
    return false;
  }

  return {
    /** How many tasks wait for the full-text index (stored, or their text written, since). */
    pendingCount,

    indexPending,

    /**
     * Best hits first across the requested kinds, those of `near` (a project id) first. A task
     * named by its number or link comes before any word match; when the words alone find fewer
     * than `limit`, words within one typo are tried and their hits follow.
     */
    query(text: string, kinds: readonly Kind[], limit: number, near: string | null = null): SearchHit[] {
      const hits = new Map<string, SearchHit>();
      const add = (list: readonly SearchHit[]) => {
        for (const hit of list)
          if (hits.size < limit && !hits.has(`${hit.kind}:${hit.id}`)) hits.set(`${hit.kind}:${hit.id}`, hit);
      };
      const refs = parseTaskRefs(text);
      if (kinds.includes('task')) add(tasksByRef(refs, near, text));
      // A link names one task: its words (the address) are not searched.
      if (refs[0]?.kind === 'link') return [...hits.values()];
      const q = toFtsQuery(text);
      if (!q) return [...hits.values()];
      // Tasks stored but not yet indexed: a few are indexed now; those left are matched directly,
      // their hits after the index's of the same standing (in `near` or not).
      const matchDirectly = indexBeforeSearch(kinds.includes('task') ? pendingCount() : 0);
      let unindexed: Record<'exact' | 'typo', SearchHit[]> | undefined;
      const withUnindexed = (indexed: SearchHit[], round: 'exact' | 'typo'): SearchHit[] => {
        if (!matchDirectly) return indexed;
        unindexed ??= unindexedTasks(wordsOf(text), near, limit);
        const isNear = (h: SearchHit) => near !== null && h.projectId === near;
        const direct = unindexed[round];
        return [
          ...indexed.filter(isNear),
          ...direct.filter(isNear),
          ...indexed.filter((h) => !isNear(h)),
          ...direct.filter((h) => !isNear(h)),
        ];
      };
      if (hits.size < limit) add(withUnindexed(run(q, kinds, limit, near), 'exact'));
      if (hits.size < limit) {
        const alternatives = typoAlternatives(text, kinds);
        const typoQuery = alternatives.size ? toFtsQuery(text, alternatives) : null;
        add(withUnindexed(typoQuery ? run(typoQuery, kinds, limit, near) : [], 'typo'));
      }
      return [...hits.values()];
    },
  };
}
