// One run of the fault campaign: a service on loopback, K client engines in child processes,
// each behind its own fault proxy, running seeded workloads while faults are injected at
// random; then heal, drain, a final sync, and the checks.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createServiceClient } from '../../src/main/core/api/client';
import { buildService } from '../../src/server/app';
import { prng } from '../../src/server/seed/generate';
import { SEED_IDS } from '../../src/server/seed/index';
import type { Db } from '../../src/server/db/open';
import type { DocumentListItem } from '../../src/shared/api/documents';
import type { IpcResult } from '../../src/shared/ipc/channel';
import type { DependencyView } from '../../src/shared/ipc/tasks';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import {
  checkRun,
  missingConflicts,
  overwritesWithoutEntry,
  serviceState,
  type Anomaly,
  type CheckInput,
  type ClientEnd,
  type PullRecord,
  type SharedCommit,
  withEventDependencies,
} from './checks';
import {
  dependencyKey,
  type CallAnswer,
  type OutboxSnapshot,
  type SyncAnswer,
} from '../support/engine-commands';
import { documentIds, documentWriter } from './documents';
import { startEngineProcess, type EngineProcess, type EngineProcessArgs } from '../support/engine-process';
import { startRelay } from './relay';
import type { ServiceProfileName } from '../../src/server/profiles';
import {
  clientWorkload,
  EVENT_DAY,
  renameShared,
  type ClientWorkload,
  type SharedTask,
  type Step,
  type WriteRecord,
} from './workload';
import { taskEndpoints } from '../../src/shared/api/tasks';

export const FAULT_KINDS = [
  'partition-both',
  'partition-answers-lost',
  'drop-before',
  'drop-after',
  'error-5xx',
  'throttle-429',
  'hang',
  'sigkill',
  'sigstop',
  'service-restart',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface RunOptions {
  seed: number;
  clients: number;
  /** Workload steps per client. */
  steps: number;
  /** Longest partition or pause, ms (the issue's 0-10 s; the CI campaign scales it down). */
  maxOutageMs: number;
  /** Mean pause between two faults, ms. */
  faultGapMs: number;
  /** Longest pause between two steps of a client, ms. */
  thinkMs: number;
  /** Engine request timeout: how long a hung answer holds a request. */
  requestTimeoutMs: number;
  /** How long the final drain may take before the run counts as not drained. */
  drainTimeoutMs: number;
  /**
   * Rounds of held concurrent renames before the random workload (`journalPhase`), so the
   * conflict-journal check has pulls to judge. 0: none.
   */
  journalRounds?: number;
  /** How the service answers: as the spec says (default) or as GoodDay's live service does. */
  service?: ServiceProfileName;
}

export interface RunResult {
  seed: number;
  operations: number;
  faults: Record<FaultKind, number>;
  anomalies: Anomaly[];
  /** The timeline: steps, answers and faults, for replaying an anomaly. */
  log: string[];
  ms: number;
  /** Pulls the conflict-journal check could judge (see `missingConflicts`). */
  journalJudged: number;
  /** Sends over another client's rename the journal check could judge (`overwritesWithoutEntry`). */
  sendsJudged: number;
  /** Where the run's time went, ms per phase (setup, workload, faults, drain, final, check, teardown). */
  phases: Record<string, number>;
  /** What the checks judged (absent when the run failed before them). */
  input?: CheckInput;
}

const TOKEN = 'fault-token';
/** The requests a journal-phase holder loses: its task updates (renames). */
const HELD_UPDATE = /^PUT \/2\.0\/task\/[^/]+\/update$/;
const USERS = [SEED_IDS.users.admin, SEED_IDS.users.bob, SEED_IDS.users.cleo, SEED_IDS.users.dan];
const PROJECT = SEED_IDS.workspace;

interface Service {
  app: FastifyInstance;
  /** The service's database: the harness writes documents there (the API has no document write). */
  db: Db;
  port: number;
}

/** Starts the service on the data folder, on a free port (the relay keeps the address stable).
 * `onCommit` hears every successful task update, with its body, when the service answers it. */
async function startServiceOn(
  dataDir: string,
  onCommit: (taskId: string, body: unknown) => void,
  profile: ServiceProfileName = 'spec',
): Promise<Service> {
  const { app, db } = buildService({
    profile,
    dbPath: join(dataDir, 'service.sqlite'),
    filesDir: join(dataDir, 'files'),
    tokens: [TOKEN],
    seed: 'empty',
  });
  // The journal check needs when each shared task's name changed on the service. The service
  // writes synchronously in the handler, so the answer's moment follows the commit at once.
  app.addHook('onSend', async (request, reply) => {
    const match = /\/task\/([^/]+)\/update$/.exec(request.url);
    if (request.method === 'PUT' && match && reply.statusCode < 300) onCommit(match[1]!, request.body);
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, db, port: Number(new URL(address).port) };
}

/** A client across restarts: the same data folder and proxy, a new process after a kill. */
class Client {
  proc!: EngineProcess;
  /** Set while the process is being replaced; callers wait for it. */
  private restarting: Promise<void> | undefined;
  stopped = false;

  constructor(
    readonly index: number,
    readonly args: EngineProcessArgs,
    readonly proxy: FaultProxy,
  ) {}

  async start(): Promise<void> {
    this.proc = await startEngineProcess(this.args);
    await this.proc.ready;
  }

  async alive(): Promise<EngineProcess> {
    while (this.restarting) await this.restarting;
    return this.proc;
  }

  /** SIGKILL and start again on the same files. */
  async killAndRestart(): Promise<void> {
    if (this.restarting) return;
    this.restarting = (async () => {
      const old = this.proc;
      old.signal('SIGKILL');
      await old.exited;
      await this.start();
    })().finally(() => (this.restarting = undefined));
    await this.restarting;
  }

  /** SIGSTOP until `over` resolves, then SIGCONT. */
  async pause(over: Promise<void>): Promise<void> {
    const proc = await this.alive();
    this.stopped = true;
    proc.signal('SIGSTOP');
    await over;
    proc.signal('SIGCONT');
    this.stopped = false;
  }
}

/** Pulls until a run ends without error (a few tries); answers the last error, if any. */
async function syncUntilClean(proc: EngineProcess, attempts = 5, fresh = false): Promise<string | undefined> {
  let lastError: string | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const status = await proc.send<{ lastError: string | null }>({ op: 'sync', fresh });
    if (!status.lastError) return undefined;
    lastError = status.lastError;
    await sleep(200 * (attempt + 1));
  }
  return lastError;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A read the final snapshot needs from a client: its value, or a thrown error naming the channel. */
async function read<T>(proc: EngineProcess, channel: string, arg: unknown): Promise<T> {
  const { result } = await proc.send<CallAnswer>({ op: 'call', channel, arg });
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as T;
}

/**
 * What the snapshot leaves out, read as a view would: each event of the day's dependencies
 * (`dependencies.ofEvent`, fetched when first opened), the cached documents of the root
 * project's subtree (brought by the pull), and the content of those the client opened during
 * the run (`documents.get`, fetched again when the list shows a newer version).
 */
async function cacheExtras(
  proc: EngineProcess,
  snap: OutboxSnapshot,
  opened: ReadonlySet<string>,
): Promise<Pick<ClientEnd, 'records' | 'documents'>> {
  const events = await read<{ id: string; name: string }[]>(proc, 'events.list', {
    from: EVENT_DAY,
    to: EVENT_DAY,
  });
  const byEvent = new Map<string, string[]>();
  for (const e of events) {
    const deps = await read<DependencyView[]>(proc, 'dependencies.ofEvent', { eventId: e.id });
    byEvent.set(
      e.name,
      deps.map((d) => dependencyKey(d.type, d.predecessor, d.successor)),
    );
  }
  const list = await read<DocumentListItem[]>(proc, 'documents.list', {
    projectId: PROJECT,
    subfolders: true,
  });
  const content: Record<string, string> = {};
  for (const d of list)
    if (opened.has(d.id))
      content[d.id] =
        (await read<{ content: string | null }>(proc, 'documents.get', { documentId: d.id })).content ?? '';
  return { records: withEventDependencies(snap.records, byEvent), documents: { list, content } };
}

export async function runOnce(options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const random = prng(options.seed);
  const root = mkdtempSync(join(tmpdir(), `faults-${options.seed}-`));
  const serviceDir = join(root, 'service');
  mkdirSync(serviceDir);
  const log: string[] = [];
  const t = () => Date.now() - started;
  const phases: Record<string, number> = {};
  let phaseStart = started;
  const phase = (name: string) => {
    const now = Date.now();
    phases[name] = (phases[name] ?? 0) + now - phaseStart;
    phaseStart = now;
  };
  const note = (line: string) => log.push(`${String(t()).padStart(6)} ${line}`);
  const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  const anomalies: Anomaly[] = [];
  const commits: SharedCommit[] = [];
  const pulls: PullRecord[] = [];
  const heldRenames: NonNullable<CheckInput['heldRenames']> = [];
  const clientOfUser = (userId: unknown): number | null => {
    const matching = [...Array(options.clients).keys()].filter((k) => USERS[k % USERS.length] === userId);
    return matching.length === 1 ? matching[0]! : null;
  };
  const onCommit = (taskId: string, raw: unknown) => {
    const body = raw as { title?: unknown; userId?: unknown } | undefined;
    if (body?.title !== undefined)
      commits.push({ taskId, field: 'name', value: body.title, client: clientOfUser(body.userId), at: t() });
  };
  let service = await startServiceOn(serviceDir, onCommit, options.service);
  const relay = await startRelay();
  relay.setTarget(service.port);
  const target = `http://127.0.0.1:${relay.port}/2.0`;
  const api = createServiceClient({ baseUrl: target, token: TOKEN });
  const clients: Client[] = [];
  const proxies: FaultProxy[] = [];
  let operations = 0;
  let journalJudged = 0;
  let sendsJudged = 0;
  let checked: CheckInput | undefined;
  const writes: WriteRecord[] = [];
  try {
    // Shared tasks every client edits at once.
    const shared: SharedTask[] = [];
    for (let i = 0; i < 3; i++) {
      const name = `r${options.seed}-shared${i}`;
      const task = await api.call(taskEndpoints.createTask, {
        body: { projectId: PROJECT, title: name, fromUserId: USERS[0]! },
      });
      shared.push({ id: task.id, name });
    }
    // Documents on the service from the start (the first pull brings them), then changed while
    // the clients work (`writeDocuments`).
    const writer = documentWriter({
      run: `r${options.seed}`,
      random: prng(options.seed * 17 + 5),
      projectId: PROJECT,
      userId: USERS[0]!,
    });
    for (let i = 0; i < 2; i++) note(`DOCUMENT ${writer.insert(service.db)}`);
    for (let k = 0; k < options.clients; k++) {
      const proxy = await startFaultProxy({ target, random: prng(options.seed * 31 + k) });
      proxies.push(proxy);
      const dataDir = join(root, `client${k}`);
      mkdirSync(dataDir);
      const client = new Client(
        k,
        {
          dataDir,
          baseUrl: proxy.baseUrl,
          token: TOKEN,
          userId: USERS[k % USERS.length]!,
          timeoutMs: options.requestTimeoutMs,
          sync: { retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 100 }, probeIntervalMs: 100 },
          backoff: { baseMs: 20, maxMs: 300 },
          tickMs: 50,
          concurrency: 4,
          serve: true,
          onLog: (line) => note(`c${k} engine: ${line.slice(0, 300)}`),
        },
        proxy,
      );
      clients.push(client);
    }
    phase('setup');
    await Promise.all(clients.map((c) => c.start()));
    phase('start');
    // The first pull must succeed: a client cannot write into a project it has never seen.
    await Promise.all(
      clients.map(async (c) => {
        const problem = await syncUntilClean(await c.alive(), 10);
        if (problem) throw new Error(`client ${c.index}: first sync failed: ${problem}`);
      }),
    );

    const workloads: ClientWorkload[] = clients.map((c) =>
      clientWorkload({
        client: c.index,
        run: `r${options.seed}`,
        steps: options.steps,
        random: prng(options.seed * 1000 + c.index),
        projectId: PROJECT,
        shared,
        userId: USERS[c.index % USERS.length]!,
        documents: documentIds(`r${options.seed}`),
      }),
    );
    let workloadDone = false;
    // An outage still under way when the workload ends is cut short: the heal ends it anyway.
    let endOutages: () => void = () => {};
    const outagesOver = new Promise<void>((done) => (endOutages = done));
    const outage = (ms: number) => Promise.race([sleep(ms), outagesOver]);
    phase('firstSync');

    async function runClient(c: Client, w: ClientWorkload): Promise<void> {
      const stepRandom = prng(options.seed * 7 + c.index);
      for (let i = 0; ; i++) {
        const step = w.next();
        if (step === undefined) return;
        await sleep(Math.floor(stepRandom() * options.thinkMs));
        const proc = await c.alive();
        if (step === 'sync') {
          await pull(c, proc);
          continue;
        }
        operations++;
        await write(c, proc, w, step, i);
      }
    }

    /** A workload pull, with the client's claims on the shared names before and after it. */
    async function pull(c: Client, proc: EngineProcess): Promise<void> {
      note(`c${c.index} sync`);
      const start = t();
      const claims = { entity: 'task', ids: shared.map((x) => x.id), fields: ['name'] };
      const answer = await proc.send<SyncAnswer>({ op: 'sync', claims }).catch(() => undefined);
      note(
        `c${c.index} sync done: ${answer?.lastError ?? 'ok'}, claims ${JSON.stringify(answer?.claimsBefore ?? [])}`,
      );
      pulls.push({
        client: c.index,
        start,
        end: t(),
        ok: !!answer && !answer.lastError,
        claimsBefore: answer?.claimsBefore ?? [],
        claimsAfter: answer?.claimsAfter ?? [],
      });
    }

    /**
     * Concurrent renames the journal check can judge (`missingConflicts`), before any random
     * fault: each round, the even clients ("holders") lose every task update on the way to the
     * service (a one-way partition: their reads pass) and rename each shared task; the odd
     * clients rename the same tasks and drain, so the service commits their names after the
     * holders' renames were acknowledged locally; then each holder pulls while its renames are
     * still pending: the pull sees another client's name over a pending one, which the journal
     * must record. The partition heals and the holders drain before the next round. Then the
     * same again without the pull: the holders rename anew, the writers rename and drain, and the
     * holders come back and send at once (a reconnect with no pull first): only the check before
     * a send can see the writers' names, which the journal must record too
     * (`overwritesWithoutEntry`, which knows these renames' first sends failed: `heldRenames`).
     */
    async function journalPhase(rounds: number): Promise<void> {
      const holders = clients.filter((c) => c.index % 2 === 0);
      const writers = clients.filter((c) => c.index % 2 === 1);
      if (!writers.length) return;
      const renameAll = async (c: Client, round: string) => {
        const proc = await c.alive();
        for (const [n, s] of shared.entries()) {
          operations++;
          const value = `r${options.seed}-c${c.index}-j${round}-${n}`;
          // Let through when the partition heals (`until` set then).
          if (holders.includes(c))
            heldRenames.push({ client: c.index, taskId: s.id, value, until: Infinity });
          await write(c, proc, workloads[c.index]!, renameShared(s, value), -1);
        }
      };
      const healHeld = () => {
        for (const h of heldRenames) h.until = Math.min(h.until, t());
      };
      const drain = async (c: Client) => (await c.alive()).send({ op: 'drain', timeoutMs: 20_000 });
      for (let round = 0; round < rounds; round++) {
        note(`JOURNAL round ${round}: holders ${holders.map((c) => c.index).join(',')} lose their updates`);
        for (const h of holders) h.proxy.set({ dropBefore: { rate: 1, match: HELD_UPDATE } });
        await Promise.all(holders.map((h) => renameAll(h, `${round}`)));
        await Promise.all(writers.map(async (w) => (await renameAll(w, `${round}`), await drain(w))));
        await Promise.all(holders.map(async (h) => pull(h, await h.alive())));
        healHeld();
        for (const h of holders) h.proxy.reset();
        await Promise.all(holders.map(drain));
        note(`JOURNAL round ${round}s: holders lose their updates, then send with no pull`);
        for (const h of holders) h.proxy.set({ dropBefore: { rate: 1, match: HELD_UPDATE } });
        await Promise.all(holders.map((h) => renameAll(h, `${round}s`)));
        await Promise.all(writers.map(async (w) => (await renameAll(w, `${round}s`), await drain(w))));
        // A held rename's attempt under way (its read done) must not slip through as the partition heals.
        await new Promise((r) => setTimeout(r, 500));
        healHeld();
        for (const h of holders) h.proxy.reset();
        await Promise.all(holders.map(drain));
      }
    }

    async function write(c: Client, proc: EngineProcess, w: ClientWorkload, step: Step, i: number) {
      const at = t();
      let answer: CallAnswer | undefined;
      let note_: string | undefined;
      try {
        answer = await proc.send<CallAnswer>({
          op: 'call',
          channel: step.channel,
          arg: step.arg,
          expect: step.expect,
          ...(step.stage ? { stage: step.stage } : {}),
        });
      } catch (err) {
        note_ = err instanceof Error ? err.message : String(err);
      }
      const result: IpcResult<unknown> | undefined = answer?.result;
      const entryId = result?.ok ? (result.value as { entryId?: number | null }).entryId : undefined;
      // A write that changed nothing locally queues nothing: it is no acknowledged change. A write
      // that put back what a waiting change made withdraws both (an undo): nothing is sent, yet
      // its value is the one that stands, so it counts as an acknowledged write of that value.
      const withdrawn = result?.ok === true && (result.value as { withdrawn?: boolean }).withdrawn === true;
      const outcome = !result
        ? 'unknown'
        : !result.ok
          ? 'refused'
          : entryId === null && !withdrawn
            ? 'noop'
            : 'acked';
      if (result && !result.ok) note_ = `${result.error.type}: ${result.error.message}`;
      // Only a write answers an entry id; a read's answer (a document opened) creates nothing.
      const createdId =
        result?.ok && entryId !== undefined ? (result.value as { id?: string }).id : undefined;
      w.settle(step, outcome, createdId);
      writes.push({
        client: c.index,
        step: i,
        channel: step.channel,
        intent: step.intent,
        outcome,
        at,
        answeredAt: t(),
        ...(note_ ? { note: note_ } : {}),
      });
      note(
        `c${c.index} ${step.channel} ${JSON.stringify(step.arg)} -> ${outcome}${entryId ? ` #${entryId}` : ''}${createdId ? ` ${createdId}` : ''}${note_ ? ` (${note_})` : ''}`,
      );
      if (answer?.readYourWrites) {
        anomalies.push({
          kind: 'read-your-writes',
          detail: `client ${c.index} ${step.channel}: ${answer.readYourWrites}`,
        });
      }
      if (result && !result.ok && result.error.type === 'internal') {
        anomalies.push({
          kind: 'internal-error',
          detail: `client ${c.index} ${step.channel}: ${result.error.message}`,
        });
      }
    }

    /** Replays the client's outbox until empty; a refused change is recorded, then discarded. */
    async function drainClient(c: Client, failedSeen: ClientEnd['failed']): Promise<void> {
      const proc = await c.alive();
      const until = Date.now() + options.drainTimeoutMs;
      for (;;) {
        const status = await proc.send<OutboxSnapshot['status']>({ op: 'drain', timeoutMs: 2_000 });
        if (status.pending === 0) return;
        // A refused change stops its item's chain until the user acts: record it, then discard
        // it, as a user would, so the rest drains.
        if (status.failed > 0) {
          const list = await proc.send<CallAnswer>({ op: 'call', channel: 'outbox.failed', arg: {} });
          const entries = list.result.ok
            ? (list.result.value as {
                id: number;
                kind: string;
                payload: unknown;
                errorType: string | null;
                errorMessage: string | null;
              }[])
            : [];
          for (const e of entries) {
            failedSeen.push({
              kind: e.kind,
              payload: e.payload,
              errorType: e.errorType,
              errorMessage: e.errorMessage,
            });
            note(`c${c.index} discard failed ${e.kind} ${JSON.stringify(e.payload)}: ${e.errorMessage}`);
            await proc.send({ op: 'call', channel: 'outbox.discard', arg: { id: e.id } });
          }
          continue;
        }
        if (Date.now() > until) {
          anomalies.push({ kind: 'not-drained', detail: `client ${c.index}: ${JSON.stringify(status)}` });
          return;
        }
      }
    }

    async function injectFaults(): Promise<void> {
      const busy = new Set<number>();
      const pendingFaults: Promise<void>[] = [];
      while (!workloadDone) {
        await sleep(Math.floor(random() * 2 * options.faultGapMs));
        if (workloadDone) break;
        const kind = FAULT_KINDS[Math.floor(random() * FAULT_KINDS.length)]!;
        const c = clients[Math.floor(random() * clients.length)]!;
        const ms = Math.floor(random() * options.maxOutageMs);
        const burst = 1 + Math.floor(random() * 5);
        if (busy.has(c.index) && kind !== 'service-restart') continue;
        faults[kind]++;
        note(`FAULT ${kind} c${c.index} outage=${ms} burst=${burst}`);
        busy.add(c.index);
        const done = (async () => {
          switch (kind) {
            case 'partition-both':
              c.proxy.set({ dropBefore: { rate: 1 } });
              await outage(ms);
              c.proxy.reset();
              break;
            case 'partition-answers-lost':
              c.proxy.set({ dropAfter: { rate: 1 } });
              await outage(ms);
              c.proxy.reset();
              break;
            case 'drop-before':
              c.proxy.set({ dropBefore: { next: burst } });
              break;
            case 'drop-after':
              c.proxy.set({ dropAfter: { next: burst } });
              break;
            case 'error-5xx':
              c.proxy.set({ serverError: { next: burst * 2 } });
              break;
            case 'throttle-429':
              c.proxy.set({ tooMany: { next: burst * 2 } });
              break;
            case 'hang':
              c.proxy.set({ hang: { next: Math.min(burst, 2) } });
              break;
            case 'sigkill':
              await c.killAndRestart();
              break;
            case 'sigstop':
              await c.pause(outage(ms));
              break;
            case 'service-restart': {
              relay.setTarget(undefined);
              await service.app.close();
              await sleep(Math.min(ms, 500));
              service = await startServiceOn(serviceDir, onCommit, options.service);
              relay.setTarget(service.port);
              break;
            }
          }
        })()
          .catch((err: unknown) => {
            anomalies.push({ kind: 'harness-error', detail: `fault ${kind}: ${String(err)}` });
          })
          .finally(() => busy.delete(c.index));
        pendingFaults.push(done);
      }
      await Promise.all(pendingFaults);
    }

    /** Documents change on the service while the clients work (see `documents.ts`). */
    async function writeDocuments(): Promise<void> {
      const gap = prng(options.seed * 19 + 3);
      while (!workloadDone) {
        await sleep(Math.floor(gap() * 4 * options.faultGapMs));
        if (workloadDone) break;
        const did = writer.step(service.db);
        if (did) note(`DOCUMENT ${did}`);
      }
    }

    if (options.journalRounds) await journalPhase(options.journalRounds);
    phase('journal');
    const faulting = injectFaults();
    const documenting = writeDocuments();
    await Promise.all(clients.map((c, k) => runClient(c, workloads[k]!)));
    workloadDone = true;
    endOutages();
    phase('workload');
    await documenting;
    await faulting;
    phase('faults');

    // Heal: no faults anywhere, every client running, then drain and a final sync.
    note('HEAL');
    for (const p of proxies) p.reset();
    const failedSeen: ClientEnd['failed'][] = clients.map(() => []);
    // Clients drain at once, then pull at once: waiting for one before the next proves nothing.
    await Promise.all(clients.map((c) => drainClient(c, failedSeen[c.index]!)));
    phase('drain');
    const ends: ClientEnd[] = await Promise.all(
      clients.map(async (c) => {
        const proc = await c.alive();
        await proc.send({ op: 'drain', timeoutMs: 2_000 });
        // A pull begun after every client drained: one under way (an automatic pull during the
        // drain) may have read before another client's last change landed (seed 98505).
        const problem = await syncUntilClean(proc, 5, true);
        if (problem)
          anomalies.push({ kind: 'sync-failed', detail: `client ${c.index} final sync: ${problem}` });
        const w = workloads[c.index]!;
        const localIds = [...w.own, ...w.records].map((o) => o.id);
        const snap = await proc.send<OutboxSnapshot>({
          op: 'snapshot',
          projectId: PROJECT,
          eventDay: EVENT_DAY,
          localIds,
        });
        const opened = new Set(
          writes.flatMap((x) =>
            x.client === c.index && x.intent.type === 'open' && x.outcome === 'acked'
              ? [x.intent.documentId]
              : [],
          ),
        );
        return {
          ...snap,
          ...(await cacheExtras(proc, snap, opened)),
          failed: [...failedSeen[c.index]!, ...snap.failed],
        };
      }),
    );
    phase('final');
    const state = await serviceState(api, PROJECT, EVENT_DAY);
    const input: CheckInput = {
      state,
      commits,
      pulls,
      heldRenames,
      shared,
      writes,
      ends,
      own: workloads.map((w) => w.own),
      records: workloads.map((w) => w.records),
      faultsInjected: Object.values(faults).reduce((a, b) => a + b, 0),
    };
    anomalies.push(...checkRun(input));
    journalJudged = missingConflicts(input).judged;
    sendsJudged = overwritesWithoutEntry(input).judged;
    checked = input;
    phase('check');
  } catch (err) {
    anomalies.push({
      kind: 'harness-error',
      detail: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
  } finally {
    for (const c of clients) {
      c.proc?.signal('SIGCONT');
      c.proc?.signal('SIGKILL');
    }
    await Promise.all(clients.map((c) => c.proc?.exited));
    await Promise.all(proxies.map((p) => p.close()));
    await relay.close();
    await service.app.close().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
    phase('teardown');
  }
  return {
    seed: options.seed,
    operations,
    faults,
    anomalies,
    log,
    ms: Date.now() - started,
    phases,
    journalJudged,
    sendsJudged,
    ...(checked ? { input: checked } : {}),
  };
}
