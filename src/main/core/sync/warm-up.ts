import { Task } from '../../../shared/api/tasks';
import { createElementCutter, fingerprintOf } from '../api/list-elements';
import { SLICE_MS } from '../loop-turns';

/**
 * Warming the code that reads a task list while a first sync waits for its first answers.
 *
 * A process's first thousand task parses cost many times its later ones (the engine compiles and
 * optimizes the task schema's checks, the element cutter and the JSON reader as they run: the
 * first 1,000 parses took 133-426 ms where 5,000 warm ones take 17-49 ms), and a first sync's My
 * Work lists are exactly those first parses. Between the first requests and the first answers the
 * core has nothing to do for a round trip (150 ms at 50 ms RTT); reading a few built-in list
 * answers in that time, element by element as the sync reads a list, makes the real lists' parse
 * the warm one. Nothing read here is kept: the samples are parsed and dropped.
 *
 * The warm-up holds back a request or an answer by at most a batch: it begins only once the first
 * requests were handed to the network, reads elements for at most half a turn's budget at a time
 * (a process's very first element, its checks being compiled, takes longer alone) with the loop
 * given back between batches (`setImmediate`, after the turn's I/O), does not count in the core's
 * shared turn budget (`loop-turns.ts`), waits while other work waits for its turn, and stops for
 * good once an answer came (`stop()`), the sync ended, or enough was read.
 */

/**
 * Tasks as the two services send them, varied as real lists are (each nullable field both null
 * and set, fields the live service leaves out, both timestamp forms), so the checks are compiled
 * for every kind of element a real list holds, not one kind and then compiled again.
 */
export const SAMPLE_TASKS: readonly Record<string, unknown>[] = [
  // The spec's shape, as our service sends it: every field, local time with microseconds.
  {
    id: 'warm-t1',
    shortId: '1',
    name: 'Sample task',
    actionRequiredUserId: 'warm-u1',
    assignedToUserId: 'warm-u1',
    createdByUserId: 'warm-u2',
    customFieldsData: {},
    deadline: null,
    startDate: null,
    endDate: null,
    scheduleDate: null,
    estimate: null,
    progress: null,
    priority: 5,
    reportedTime: null,
    momentCreated: '2026-01-01T11:35:00.000000',
    momentClosed: null,
    recentActivityMoment: '2026-01-01T11:35:00.000000',
    parentTaskId: null,
    projectId: 'warm-p1',
    status: { id: 'warm-s1', name: 'New' },
    systemStatus: 1,
    systemType: 1,
    scheduleStatus: 0,
    taskType: { id: 'warm-tt1', name: 'Task' },
    users: ['warm-u1'],
    formSubmission: null,
    storyPoints: null,
    todoList: null,
  },
  // The spec's shape with every optional value set.
  {
    id: 'warm-t2',
    shortId: '2',
    name: 'Sample subtask with dates',
    actionRequiredUserId: null,
    assignedToUserId: 'warm-u2',
    createdByUserId: 'warm-u1',
    customFieldsData: { 'warm-cf1': 'value', 'warm-cf2': 3 },
    deadline: '2026-02-10',
    startDate: '2026-02-01',
    endDate: '2026-02-09',
    scheduleDate: '2026-02-02',
    estimate: 120,
    progress: 40,
    priority: 2,
    reportedTime: 30,
    momentCreated: '2026-01-02T08:00:00.123456',
    momentClosed: '2026-01-03T09:30:00.000000',
    recentActivityMoment: '2026-01-03T09:30:00.000000',
    parentTaskId: 'warm-t1',
    projectId: 'warm-p1',
    status: { id: 'warm-s2', name: 'Done' },
    systemStatus: 5,
    systemType: 2,
    scheduleStatus: 1,
    taskType: { id: 'warm-tt2', name: 'Bug' },
    users: ['warm-u1', 'warm-u2'],
    formSubmission: {
      requestFormName: 'Request',
      formFields: [
        {
          config: { fieldId: 'f1', label: 'Label', type: 'text', isRequired: false, description: '' },
          value: 'x',
        },
      ],
    },
    storyPoints: 3,
    todoList: [
      {
        uid: 'warm-l1',
        title: 'Checklist',
        items: [{ properties: { completed: false, title: 'First step', userId: 'warm-u1' } }],
      },
    ],
  },
  // The live service's shape: UTC stamps with the fraction trimmed or absent, `reportedTime` null,
  // fields the spec lists left out.
  {
    id: 'GfTsk1',
    shortId: '17',
    name: 'Live task',
    actionRequiredUserId: 'GfUsr1',
    assignedToUserId: 'GfUsr1',
    createdByUserId: 'GfUsr2',
    deadline: '2026-03-01',
    startDate: null,
    endDate: null,
    priority: 3,
    reportedTime: null,
    momentCreated: '2023-10-06T07:53:47.04146',
    momentClosed: null,
    recentActivityMoment: '2023-10-06T07:53:47',
    parentTaskId: null,
    projectId: 'GfPrj1',
    status: { id: 'GfSts1', name: 'In progress' },
    systemStatus: 2,
    systemType: 1,
    taskType: { id: 'GfTyp1', name: 'Task' },
    users: ['GfUsr1', 'GfUsr2'],
  },
  {
    id: 'GfTsk2',
    name: 'Live subtask',
    actionRequiredUserId: null,
    assignedToUserId: null,
    createdByUserId: 'GfUsr1',
    customFieldsData: null,
    estimate: 60,
    progress: null,
    reportedTime: null,
    momentCreated: '2023-10-07T10:00:00.5',
    recentActivityMoment: '2023-10-08T12:01:02.123',
    parentTaskId: 'GfTsk1',
    projectId: 'GfPrj1',
    status: { id: 'GfSts2', name: 'Not started' },
    systemStatus: 1,
    systemType: 2,
    taskType: { id: 'GfTyp1', name: 'Task' },
    users: null,
    todoList: null,
  },
];

/** The samples as one list answer's bytes, read as a list answer is: cut, fingerprinted, parsed. */
const SAMPLE_ANSWER = new TextEncoder().encode(JSON.stringify(SAMPLE_TASKS));

/**
 * Elements read at most. The first parses pay for building and compiling the checks; after a few
 * hundred, more reading costs about what it saves, and on a loaded machine (a round trip stretched
 * by the load) it only takes CPU from everything else. Measured with a throwaway probe over
 * 2,674 generated tasks in a cold process (load 2-6): no warm-up, the first pass 637-818 ms; 300
 * sample parses (127-169 ms) then 373-496 ms; 1,000 (262-649 ms) then 554-641 ms.
 */
export const WARM_UP_ELEMENTS = 300;

export interface WarmUpOptions {
  /** The sync's signal: its end ends the warm-up. */
  signal: AbortSignal;
  /**
   * Whether other work waits for the loop (then the warm-up waits and looks again): `turnSpent` of
   * `loop-turns.ts`.
   */
  busy: () => boolean;
  /** Elements to read at most (`WARM_UP_ELEMENTS`). */
  elements?: number;
  /** Told as its first batch begins (tests, the bench's probes). */
  onBegin?: () => void;
  /** Told once it ends, with the number of elements it read (tests, the bench's probes). */
  onEnd?: (elements: number) => void;
}

export interface WarmUp {
  /** Begins reading samples after this turn's I/O (call once the first requests were sent). */
  begin(): void;
  /** Ends it for good (an answer came: the real lists warm the code from now on). */
  stop(): void;
}

/**
 * The sample answer read over and over, one element a step, as `readFingerprintedList` reads an
 * answer's new elements (each pass a new answer: cut, fingerprinted, parsed, checked).
 */
function* sampleElements(): Generator<void, never> {
  for (;;) {
    for (const { bytes } of createElementCutter().feed(SAMPLE_ANSWER)) {
      fingerprintOf(bytes);
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      Task.safeParse(JSON.parse(text));
      yield;
    }
  }
}

/**
 * How long one batch reads at most before it gives the loop back: half the core's turn budget
 * (`SLICE_MS` of `loop-turns.ts`), so an answer or a call that comes meanwhile waits no longer
 * than a slice of the core's own work would make it. An element's first read (the checks being
 * compiled) can take longer on its own; the real list's first element would pay that anyway.
 */
const BATCH_MS = SLICE_MS / 2;

export function createWarmUp(options: WarmUpOptions): WarmUp {
  const limit = options.elements ?? WARM_UP_ELEMENTS;
  let read = 0;
  const elements = sampleElements();
  let state: 'waiting' | 'running' | 'ended' = 'waiting';
  const end = (): void => {
    if (state === 'ended') return;
    state = 'ended';
    options.onEnd?.(read);
  };
  const batch = (): void => {
    if (state !== 'running') return;
    if (options.signal.aborted || read >= limit) return end();
    // Other work waits for its turn (requests queued behind the turn's budget): it goes first,
    // and the warm-up looks again after it (a timer: the loop must not spin while it waits).
    if (options.busy()) {
      setTimeout(batch, 1);
      return;
    }
    if (read === 0) options.onBegin?.();
    const until = performance.now() + BATCH_MS;
    do {
      elements.next();
      read++;
    } while (read < limit && performance.now() < until);
    setImmediate(batch);
  };
  return {
    begin() {
      if (state !== 'waiting') return;
      state = 'running';
      setImmediate(batch);
    },
    stop: end,
  };
}
