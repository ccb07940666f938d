// The checks find what they are meant to find: a clean run passes, and each kind of anomaly a
// broken engine could produce (a lost create, a doubled create or comment, a lost field write,
// a stale cache, a refusal without a reason, a conflict nobody caused) is reported.
import { describe, expect, it } from 'vitest';
import {
  checkRun,
  missingConflicts,
  overwritesWithoutEntry,
  SEND_SLACK_MS,
  SEND_UNREAD_MS,
  withEventDependencies,
  type CheckInput,
  type ClientEnd,
  type ServiceState,
} from './checks';
import type { TaskSnapshot } from '../support/engine-commands';
import type { Intent, OwnTask, WriteRecord } from './workload';

const task = (id: string, name: string, extra: Partial<TaskSnapshot> = {}): TaskSnapshot => ({
  id,
  name,
  parentTaskId: null,
  priority: 1,
  statusId: 's-new',
  tags: [],
  messages: [],
  customFieldsData: {},
  files: [],
  dependencies: [],
  ...extra,
});

function stateOf(tasks: TaskSnapshot[]): ServiceState {
  const messageCounts = new Map<string, Map<string, number>>();
  for (const t of tasks) {
    const counts = new Map<string, number>();
    for (const m of t.messages) counts.set(m, (counts.get(m) ?? 0) + 1);
    messageCounts.set(t.id, counts);
  }
  return {
    tasks,
    messageCounts,
    records: [],
    attachments: new Map(),
    dependencies: [],
    eventNames: new Map(),
    documents: [],
    documentContent: new Map(),
  };
}

let step = 0;
const write = (client: number, intent: Intent, outcome: WriteRecord['outcome'] = 'acked'): WriteRecord => ({
  client,
  step: step++,
  channel: 'x',
  intent,
  outcome,
  at: step,
  answeredAt: step,
});

const end = (tasks: TaskSnapshot[], extra: Partial<ClientEnd> = {}): ClientEnd => ({
  status: { pending: 0, inFlight: 0, failed: 0, conflicts: 0, paused: null },
  failed: [],
  conflicts: [],
  tasks,
  records: [],
  realIds: { 'local-a': 'A' },
  documents: { list: [], content: {} },
  ...extra,
});

/** A clean two-client run: a create with a comment and a priority, and a shared rename. */
function clean(): CheckInput {
  const service = [
    task('S', 'shared', { name: 'c1-name', priority: 3 }),
    task('A', 'c0-t0', { priority: 7, messages: ['c0-m1'] }),
  ];
  const own: OwnTask[][] = [[{ title: 'c0-t0', id: 'local-a', parent: null, deleted: false }], []];
  return {
    state: stateOf(service),
    shared: [{ id: 'S', name: 'shared' }],
    writes: [
      write(0, { type: 'create', title: 'c0-t0', parent: null }),
      write(0, { type: 'message', task: { own: 'c0-t0' }, text: 'c0-m1' }),
      write(0, { type: 'field', task: { own: 'c0-t0' }, field: 'priority', value: 2 }),
      write(0, { type: 'field', task: { own: 'c0-t0' }, field: 'priority', value: 7 }),
      write(0, { type: 'field', task: { shared: 'S' }, field: 'name', value: 'c0-name' }),
      write(1, { type: 'field', task: { shared: 'S' }, field: 'name', value: 'c1-name' }),
    ],
    ends: [end(service), end(service)],
    own,
    faultsInjected: 0,
  };
}

const kinds = (input: CheckInput) => checkRun(input).map((a) => a.kind);

/** Every client's cache shows the service's tasks and records as they stand (same objects). */
function converge(input: CheckInput): CheckInput {
  input.ends = input.ends.map((e) => ({ ...e, tasks: input.state.tasks, records: input.state.records }));
  return input;
}

describe('fault campaign checks', () => {
  it('pass a clean run', () => {
    expect(checkRun(clean())).toEqual([]);
  });

  it('report a create that never reached the service', () => {
    const input = clean();
    input.state = stateOf(input.state.tasks.filter((t) => t.id !== 'A'));
    input.ends = [end(input.state.tasks), end(input.state.tasks)];
    expect(kinds(input)).toContain('lost-write');
  });

  it('accept a create the service refused with a reason, and report one without a reason', () => {
    const input = clean();
    input.state = stateOf(input.state.tasks.filter((t) => t.id !== 'A'));
    const failed = { kind: 'task.create', payload: { tempId: 'local-a', input: { title: 'c0-t0' } } };
    input.ends = [
      end(input.state.tasks, { failed: [{ ...failed, errorType: 'rejected', errorMessage: 'no access' }] }),
      end(input.state.tasks),
    ];
    expect(kinds(input)).toEqual(['unexpected-refusal']);
    input.ends[0]!.failed[0]!.errorMessage = null;
    expect(kinds(input)).toContain('refusal-without-reason');
  });

  it('report a task or a comment that exists twice', () => {
    const input = clean();
    const doubled = [...input.state.tasks, task('B', 'c0-t0', { priority: 7 })];
    input.state = stateOf(doubled);
    expect(kinds(input)).toContain('duplicate');
    const again = clean();
    again.state.tasks[1]!.messages.push('c0-m1');
    again.state = stateOf(again.state.tasks);
    expect(kinds(again)).toContain('duplicate');
  });

  it('report a field write lost on a task only its client edits', () => {
    const input = clean();
    input.state.tasks[1]!.priority = 2;
    input.ends = [end(input.state.tasks), end(input.state.tasks)];
    expect(kinds(input)).toEqual(['lost-write']);
  });

  it('accept an unknown-outcome write after the last acknowledged one', () => {
    const input = clean();
    input.writes.push(
      write(0, { type: 'field', task: { own: 'c0-t0' }, field: 'priority', value: 9 }, 'unknown'),
    );
    expect(checkRun(input)).toEqual([]);
    input.state.tasks[1]!.priority = 9;
    input.ends = [end(input.state.tasks), end(input.state.tasks)];
    expect(checkRun(input)).toEqual([]);
  });

  it('report a shared field that ends on a value no client wrote last', () => {
    const input = clean();
    input.writes.push(write(1, { type: 'field', task: { shared: 'S' }, field: 'name', value: 'c1-later' }));
    // c1-name is no longer anyone's last value: c0's last is c0-name, c1's is c1-later.
    expect(kinds(input)).toEqual(['lost-write']);
  });

  it('report a cache that differs from the service, or keeps a deleted task', () => {
    const input = clean();
    input.ends[1] = end([input.state.tasks[0]!, { ...input.state.tasks[1]!, priority: 4 }]);
    expect(kinds(input)).toEqual(['divergence']);
    input.ends[1] = end([...input.state.tasks, task('Z', 'ghost')]);
    expect(kinds(input)).toEqual(['divergence']);
  });

  it('report a client that ends with changes waiting or needing attention', () => {
    const input = clean();
    input.ends[1] = end(input.state.tasks, { status: { ...end([]).status, pending: 1 } });
    expect(kinds(input)).toEqual(['not-drained']);
    input.ends[1] = end(input.state.tasks, { status: { ...end([]).status, stuck: 1 } });
    expect(kinds(input)).toEqual(['not-drained']);
  });

  it('report a conflict journal entry no concurrent write explains', () => {
    const input = clean();
    input.ends[0] = end(input.state.tasks, {
      conflicts: [{ entityId: 'S', field: 'priority', localValue: 3, remoteValue: 4 }],
    });
    expect(kinds(input)).toEqual(['bogus-conflict']);
    input.ends[0] = end(input.state.tasks, {
      conflicts: [{ entityId: 'S', field: 'name', localValue: 'c0-name', remoteValue: 'c1-name' }],
    });
    expect(checkRun(input)).toEqual([]);
  });

  it('report a deleted task still on the service', () => {
    const input = clean();
    input.writes.push(write(0, { type: 'delete', task: { own: 'c0-t0' } }));
    expect(kinds(input)).toContain('lost-write');
  });
});

describe('fault campaign checks: events, CRM records, projects, dependencies, attachments', () => {
  it('report an event created once but stored twice, or lost, and accept a deleted one', () => {
    const input = clean();
    input.writes.push(write(0, { type: 'recordCreate', kind: 'event', name: 'c0-e1' }));
    const event = { kind: 'event' as const, name: 'c0-e1', fields: {} };
    input.state.records = [event];
    expect(checkRun(converge(input))).toEqual([]);
    input.state.records = [event, event];
    expect(kinds(converge(input))).toEqual(['duplicate']);
    input.state.records = [];
    expect(kinds(converge(input))).toEqual(['lost-write']);
    input.writes.push(write(0, { type: 'recordDelete', kind: 'event', name: 'c0-e1' }));
    expect(checkRun(converge(input))).toEqual([]);
  });

  it('report a lost edit of a contact and a lost project membership, unless refused with a reason', () => {
    const input = clean();
    input.records = [[{ kind: 'project', name: 'c0-p1', id: 'local-p', deleted: false, members: [] }], []];
    input.writes.push(
      write(0, { type: 'recordCreate', kind: 'contact', name: 'c0-c1' }),
      write(0, { type: 'recordField', kind: 'contact', name: 'c0-c1', field: 'lastName', value: 'c0-v1' }),
      write(0, { type: 'recordCreate', kind: 'project', name: 'c0-p1' }),
      write(0, { type: 'recordField', kind: 'project', name: 'c0-p1', field: 'member:u-bob', value: true }),
    );
    input.state.records = [
      { kind: 'contact', name: 'c0-c1', fields: { lastName: 'c0-v1' } },
      { kind: 'project', name: 'c0-p1', fields: { priority: 1, 'member:u-ada': true, 'member:u-bob': true } },
    ];
    expect(checkRun(converge(input))).toEqual([]);
    input.state.records[0]!.fields['lastName'] = '';
    delete input.state.records[1]!.fields['member:u-bob'];
    expect(checkRun(input).map((a) => a.detail)).toEqual([
      expect.stringContaining('lastName'),
      expect.stringContaining('member:u-bob'),
    ]);
    const refused = { kind: 'member.add', payload: { projectId: 'local-p', userId: 'u-bob' } };
    input.ends[0] = end(input.state.tasks, {
      records: input.state.records,
      failed: [{ ...refused, errorType: 'rejected', errorMessage: 'not in the Workspace' }],
    });
    // The refused membership is not judged; the lost contact edit still is.
    expect(checkRun(input).map((a) => [a.kind, a.detail.includes('lastName')])).toEqual([
      ['unexpected-refusal', false],
      ['lost-write', true],
    ]);
  });

  it('report a dependency created twice, lost, or left after its delete', () => {
    const input = clean();
    input.state = stateOf([...input.state.tasks, task('B', 'c0-t1')]);
    input.own[0]!.push({ title: 'c0-t1', id: 'local-b', parent: null, deleted: false });
    input.ends = [end(input.state.tasks), end(input.state.tasks)];
    input.writes.push(
      write(0, { type: 'create', title: 'c0-t1', parent: null }),
      write(0, { type: 'dependency', from: 'c0-t0', to: 'c0-t1', present: true }),
    );
    const dep = { id: 'D1', from: 'A', to: 'B' };
    input.state.dependencies = [dep];
    expect(checkRun(input)).toEqual([]);
    input.state.dependencies = [dep, { ...dep, id: 'D2' }];
    expect(kinds(input)).toEqual(['duplicate']);
    input.state.dependencies = [];
    expect(kinds(input)).toEqual(['lost-write']);
    input.writes.push(write(0, { type: 'dependency', from: 'c0-t0', to: 'c0-t1', present: false }));
    expect(checkRun(input)).toEqual([]);
    input.state.dependencies = [dep];
    expect(kinds(input)).toEqual(['lost-write']);
  });

  it('report a comment whose attached file is missing on the service', () => {
    const input = clean();
    input.writes[1] = {
      ...input.writes[1]!,
      intent: { ...input.writes[1]!.intent, files: ['c0-m1.txt'] } as Intent,
    };
    input.state.attachments.set('A', new Map([['c0-m1', ['c0-m1.txt']]]));
    expect(checkRun(input)).toEqual([]);
    input.state.attachments.set('A', new Map([['c0-m1', []]]));
    expect(kinds(input)).toEqual(['lost-write']);
  });
});

describe('fault campaign checks: every cache equals the service beyond task fields', () => {
  /** A clean run whose service holds one of each record kind, a dependency and a file. */
  function withRecords(): CheckInput {
    const input = clean();
    input.state.tasks[1] = {
      ...input.state.tasks[1]!,
      files: ['c0-m1 / c0-m1.txt / 10'],
      dependencies: ['5 task:A > task:S'],
    };
    input.state.tasks[0] = { ...input.state.tasks[0]!, dependencies: ['5 task:A > task:S'] };
    input.state.records = [
      { kind: 'event', name: 'c0-e1', fields: {} },
      { kind: 'contact', name: 'c0-c1', fields: { lastName: 'Lee' } },
      { kind: 'account', name: 'c0-a1', fields: { website: 'a.example' } },
      {
        kind: 'project',
        name: 'c0-p1',
        fields: { priority: 3, 'member:u-ada': true, 'member:u-bob': true, dependencies: [] },
      },
    ];
    return converge(input);
  }
  /** Client 1's cache, a deep copy to plant a difference in. */
  const planted = (input: CheckInput, change: (e: ClientEnd) => void): CheckInput => {
    const copy = structuredClone(input.ends[1]!);
    change(copy);
    input.ends[1] = copy;
    return input;
  };
  const divergences = (input: CheckInput) => checkRun(input).map((a) => `${a.kind}: ${a.detail}`);

  it('pass caches that hold the same records, dependencies and files as the service', () => {
    expect(checkRun(withRecords())).toEqual([]);
  });

  it('report an event, contact or account missing from a cache, or one the service no longer has', () => {
    for (const kind of ['event', 'contact', 'account', 'project'] as const) {
      const missing = planted(withRecords(), (e) => (e.records = e.records.filter((r) => r.kind !== kind)));
      expect(checkRun(missing)).toEqual([
        { kind: 'divergence', detail: expect.stringMatching(new RegExp(`^client 1 lacks ${kind}:`)) },
      ]);
    }
    const extra = planted(withRecords(), (e) =>
      e.records.push({ kind: 'contact', name: 'ghost', fields: {} }),
    );
    expect(divergences(extra)).toEqual([expect.stringContaining('still shows contact:ghost')]);
  });

  it('report a record field, a project membership or a project dependency that differs', () => {
    const field = planted(withRecords(), (e) => (e.records[2]!.fields['website'] = 'old.example'));
    expect(checkRun(field)).toEqual([
      { kind: 'divergence', detail: expect.stringContaining('account:c0-a1: website cache "old.example"') },
    ]);
    const member = planted(withRecords(), (e) => delete e.records[3]!.fields['member:u-bob']);
    expect(checkRun(member)).toEqual([
      { kind: 'divergence', detail: expect.stringContaining('member:u-bob cache undefined service true') },
    ]);
    const dep = planted(
      withRecords(),
      (e) => (e.records[3]!.fields['dependencies'] = ['5 project:P > task:A']),
    );
    expect(kinds(dep)).toEqual(['divergence']);
  });

  it('report a task dependency or a file on a message that differs in a cache', () => {
    const dep = planted(withRecords(), (e) => (e.tasks = e.tasks.map((t) => ({ ...t, dependencies: [] }))));
    // Both ends of the dependency lack it.
    expect(divergences(dep)).toEqual([
      expect.stringContaining('"c1-name" (S): dependencies cache [] service ["5 task:A > task:S"]'),
      expect.stringContaining('"c0-t0" (A): dependencies cache [] service ["5 task:A > task:S"]'),
    ]);
    const size = planted(
      withRecords(),
      (e) => (e.tasks[1] = { ...e.tasks[1]!, files: ['c0-m1 / c0-m1.txt / 0'] }),
    );
    expect(divergences(size)).toEqual([expect.stringContaining('files cache ["c0-m1 / c0-m1.txt / 0"]')]);
    const none = planted(withRecords(), (e) => (e.tasks[1] = { ...e.tasks[1]!, files: [] }));
    expect(kinds(none)).toEqual(['divergence']);
  });
});

describe('fault campaign checks: dependencies with an event end', () => {
  /** Client 0 made task c0-t0 (A) and event c0-e1 (E), then linked the task to the event. */
  function linked(): CheckInput {
    const input = clean();
    input.records = [[{ kind: 'event', name: 'c0-e1', id: 'local-e', deleted: false, members: [] }], []];
    input.writes.push(
      write(0, { type: 'recordCreate', kind: 'event', name: 'c0-e1' }),
      write(0, { type: 'dependency', from: 'c0-t0', to: 'c0-e1', present: true }),
    );
    input.state.records = [{ kind: 'event', name: 'c0-e1', fields: {} }];
    input.state.eventNames = new Map([['E', 'c0-e1']]);
    input.state.dependencies = [{ id: 'D1', from: 'A', to: 'E' }];
    return converge(input);
  }

  it('pass a task-to-event dependency on the service, and report it doubled or lost', () => {
    expect(checkRun(linked())).toEqual([]);
    const doubled = linked();
    doubled.state.dependencies.push({ id: 'D2', from: 'A', to: 'E' });
    expect(checkRun(doubled)).toEqual([
      { kind: 'duplicate', detail: 'dependency ["c0-t0","c0-e1"] exists 2 times' },
    ]);
    const lost = linked();
    lost.state.dependencies = [];
    expect(checkRun(lost)).toEqual([
      { kind: 'lost-write', detail: 'dependency c0-t0 -> c0-e1 present=false, last writes were [true]' },
    ]);
  });

  it('report an event-to-event dependency left after its delete, and judge none once an end event is deleted', () => {
    const input = linked();
    input.records![0]!.push({ kind: 'event', name: 'c0-e2', id: 'local-f', deleted: false, members: [] });
    input.writes.push(
      write(0, { type: 'recordCreate', kind: 'event', name: 'c0-e2' }),
      write(0, { type: 'dependency', from: 'c0-e2', to: 'c0-e1', present: true }),
      write(0, { type: 'dependency', from: 'c0-e2', to: 'c0-e1', present: false }),
    );
    input.state.records.push({ kind: 'event', name: 'c0-e2', fields: {} });
    input.state.eventNames.set('F', 'c0-e2');
    converge(input);
    expect(checkRun(input)).toEqual([]);
    input.state.dependencies.push({ id: 'D3', from: 'F', to: 'E' });
    expect(kinds(input)).toEqual(['lost-write']);
    // The event deleted: the service took its dependencies along; nothing left to judge.
    input.writes.push(write(0, { type: 'recordDelete', kind: 'event', name: 'c0-e1' }));
    input.state.records = input.state.records.filter((r) => r.name !== 'c0-e1');
    input.state.dependencies = [];
    expect(checkRun(converge(input))).toEqual([]);
  });

  it('report an event whose dependencies differ in a cache', () => {
    const input = linked();
    const key = '5 task:A > event:E';
    input.state.records = withEventDependencies(input.state.records, new Map([['c0-e1', [key]]]));
    converge(input);
    expect(checkRun(input)).toEqual([]);
    input.ends[1] = { ...input.ends[1]!, records: withEventDependencies(input.state.records, new Map()) };
    expect(checkRun(input)).toEqual([
      {
        kind: 'divergence',
        detail: `client 1 event:c0-e1: dependencies cache [] service ["${key}"]`,
      },
    ]);
  });
});

describe('fault campaign checks: documents', () => {
  const doc = (id: string, extra: Record<string, string> = {}) => ({
    id,
    name: `${id} v1`,
    projectId: 'P',
    createdByUserId: 'u-ada',
    momentCreated: '2026-11-22T09:00:00.000000',
    momentUpdated: '2026-11-22T09:00:01.000000',
    ...extra,
  });
  /** The service holds two documents; both clients cached both; client 1 opened D1. */
  function withDocuments(): CheckInput {
    const input = clean();
    input.state.documents = [doc('D1'), doc('D2')];
    input.state.documentContent = new Map([
      ['D1', 'one'],
      ['D2', 'two'],
    ]);
    input.ends = input.ends.map((e, k) => ({
      ...e,
      documents: {
        list: [doc('D1'), doc('D2')],
        content: k === 1 ? { D1: 'one' } : ({} as Record<string, string>),
      },
    }));
    return input;
  }
  const client1 = (input: CheckInput, documents: ClientEnd['documents']): CheckInput => {
    input.ends[1] = { ...input.ends[1]!, documents };
    return input;
  };

  it('pass caches that hold the service’s documents, and the content of those they opened', () => {
    expect(checkRun(withDocuments())).toEqual([]);
  });

  it('report a document missing from a cache, or one the service no longer has', () => {
    const missing = client1(withDocuments(), { list: [doc('D1')], content: { D1: 'one' } });
    expect(checkRun(missing)).toEqual([
      { kind: 'divergence', detail: 'client 1 lacks document "D2 v1" (D2)' },
    ]);
    const extra = client1(withDocuments(), { list: [doc('D1'), doc('D2'), doc('D3')], content: {} });
    expect(checkRun(extra)).toEqual([
      { kind: 'divergence', detail: 'client 1 still shows document "D3 v1" (D3), gone from the service' },
    ]);
  });

  it('report a cached document whose list fields or opened content differ from the service', () => {
    const stale = client1(withDocuments(), {
      list: [doc('D1', { name: 'D1 v0', momentUpdated: '2026-11-22T09:00:00.000000' }), doc('D2')],
      content: {},
    });
    expect(checkRun(stale)).toEqual([
      {
        kind: 'divergence',
        detail:
          'client 1 document D1: name cache "D1 v0" service "D1 v1", ' +
          'momentUpdated cache "2026-11-22T09:00:00.000000" service "2026-11-22T09:00:01.000000"',
      },
    ]);
    const content = client1(withDocuments(), { list: [doc('D1'), doc('D2')], content: { D1: 'old' } });
    expect(checkRun(content)).toEqual([
      { kind: 'divergence', detail: 'client 1 document D1: content cache "old" service "one"' },
    ]);
  });
});

describe('fault campaign checks: the conflict journal records every overwritten concurrent change', () => {
  /** Client 0 renamed S (acknowledged locally at 50 ms), client 1's rename was committed at 100 ms,
   * and client 0 pulled at 200-300 ms with its rename still waiting: its pull saw c1-name. */
  function pulled(): CheckInput {
    const input = clean();
    input.writes = input.writes.map((w) =>
      w.client === 0 && w.intent.type === 'field' && w.intent.field === 'name'
        ? { ...w, at: 40, answeredAt: 50 }
        : w,
    );
    input.commits = [{ taskId: 'S', field: 'name', value: 'c1-name', client: 1, at: 100 }];
    const claim = { entityId: 'S', field: 'name', entryId: 5, value: 'c0-name' };
    input.pulls = [
      { client: 0, start: 200, end: 300, ok: true, claimsBefore: [claim], claimsAfter: [claim] },
    ];
    input.ends[0] = end(input.state.tasks, {
      conflicts: [{ entityId: 'S', field: 'name', localValue: 'c0-name', remoteValue: 'c1-name' }],
    });
    return input;
  }

  it('pass a run whose journal holds the conflict', () => {
    expect(checkRun(pulled())).toEqual([]);
    expect(missingConflicts(pulled())).toEqual({ judged: 1, missing: [] });
  });

  it('report a pull that saw another client’s value over a pending one and journaled nothing', () => {
    const input = pulled();
    input.ends[0] = end(input.state.tasks);
    expect(kinds(input)).toEqual(['missing-conflict']);
  });

  it('judge only what the pull surely saw', () => {
    const journalless = () => {
      const input = pulled();
      input.ends[0] = end(input.state.tasks);
      return input;
    };
    // The service changed the name during the pull: which value the pull saw is unknown.
    const during = journalless();
    during.commits!.push({ taskId: 'S', field: 'name', value: 'c0-name', client: 0, at: 250 });
    expect(checkRun(during)).toEqual([]);
    // The other rename came before the local one: the local change may have started from it.
    const before = journalless();
    before.commits![0]!.at = 45;
    expect(checkRun(before)).toEqual([]);
    // The entry was sent and acknowledged during the pull (another entry or none holds it after).
    const acked = journalless();
    acked.pulls![0]!.claimsAfter = [];
    expect(checkRun(acked)).toEqual([]);
    // A failed pull saw nothing for sure; the client's own earlier value is no conflict.
    const failed = journalless();
    failed.pulls![0]!.ok = false;
    expect(checkRun(failed)).toEqual([]);
    const own = journalless();
    own.commits![0]!.client = 0;
    expect(checkRun(own)).toEqual([]);
  });
});

describe('fault campaign checks: a send never overwrites another client’s change without an entry', () => {
  /**
   * Client 0 renamed S (acknowledged locally at 50 ms, its first send lost), client 1's rename
   * was committed at 100 ms, and client 0's rename was committed over it at 3,000 ms, with no
   * pull in between: only the check before the send could see client 1's name.
   */
  function sent(): CheckInput {
    const input = clean();
    input.writes = input.writes.map((w) =>
      w.client === 0 && w.intent.type === 'field' && w.intent.field === 'name'
        ? { ...w, at: 40, answeredAt: 50 }
        : w,
    );
    input.commits = [
      { taskId: 'S', field: 'name', value: 'c1-name', client: 1, at: 100 },
      { taskId: 'S', field: 'name', value: 'c0-name', client: 0, at: 3_000 },
    ];
    input.heldRenames = [{ client: 0, taskId: 'S', value: 'c0-name', until: 2_000 }];
    input.ends[0] = end(input.state.tasks, {
      conflicts: [{ entityId: 'S', field: 'name', localValue: 'c0-name', remoteValue: 'c1-name' }],
    });
    return input;
  }
  const journalless = () => {
    const input = sent();
    input.ends[0] = end(input.state.tasks);
    return input;
  };

  it('pass a run whose journal holds what the send overwrote', () => {
    expect(overwritesWithoutEntry(sent())).toEqual({ judged: 1, missing: [] });
    expect(kinds(sent()).filter((k) => k === 'silent-overwrite')).toEqual([]);
  });

  it('report a send that overwrote another client’s name and journaled nothing', () => {
    expect(overwritesWithoutEntry(journalless())).toMatchObject({ judged: 1, missing: [expect.any(String)] });
    expect(kinds(journalless())).toContain('silent-overwrite');
  });

  it('judge only what the engine surely had the chance to read', () => {
    // The other rename came before the local one was made: the local change may have started from it.
    const before = journalless();
    before.commits![0]!.at = 45;
    expect(overwritesWithoutEntry(before)).toEqual({ judged: 0, missing: [] });
    // Committed after the held rename was let through: its read may have come first.
    const racing = journalless();
    racing.heldRenames![0]!.until = 90;
    expect(overwritesWithoutEntry(racing).judged).toBe(0);
    // A first send of an item read moments ago goes unread: judged only beyond that window.
    const unread = journalless();
    unread.heldRenames = [];
    expect(overwritesWithoutEntry(unread).judged).toBe(0);
    unread.commits![1]!.at = 101 + SEND_UNREAD_MS + SEND_SLACK_MS;
    expect(overwritesWithoutEntry(unread).missing).toHaveLength(1);
    // The client's own earlier value is no one else's change.
    const own = journalless();
    own.commits![0]!.client = 0;
    expect(overwritesWithoutEntry(own).judged).toBe(0);
  });
});
