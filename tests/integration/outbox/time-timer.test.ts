// The running timer, against the real service (and, in the integration-goodday project, its
// live profile): kept by the core in the account's cache, so it survives closing and reopening
// the engine and a SIGKILL of the process; a stop logs its report through the outbox exactly once
// (offline too, sent on reconnect); a timer on a task created offline follows the task's real id.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatLocalDate } from '../../../src/shared/api/common';
import { SEED_IDS } from '../../../src/server/seed/index';
import type { IpcResult } from '../../../src/shared/ipc/channel';
import type { TimerView } from '../../../src/shared/ipc/time';
import { startEngineProcess } from '../../support/engine-process';
import { testEngine, writesSuite, type TestEngine } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { timeReportEndpoints } from '../../../src/shared/api/time-reports';

const suite = writesSuite();
const today = formatLocalDate(new Date());
const dirs: string[] = [];
const engines: TestEngine[] = [];

afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An engine on `dataDir` (a folder that outlives it), through the proxy, after a pull. */
async function engineOn(dataDir: string): Promise<TestEngine> {
  const e = await testEngine(suite.proxy.baseUrl, suite.svc.token, suite.svc.users.actingUserId, { dataDir });
  engines.push(e);
  await e.sync.now();
  return e;
}
async function close(e: TestEngine): Promise<void> {
  engines.splice(engines.indexOf(e), 1);
  await e.close();
}
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'timer-test-'));
  dirs.push(dir);
  return dir;
}
async function newTask(title: string): Promise<string> {
  return (
    await suite.api.call(taskEndpoints.createTask, {
      body: { projectId: SEED_IDS.workspace, title, fromUserId: suite.svc.users.admin },
    })
  ).id;
}
const reportsWith = async (taskId: string, note: string) =>
  (await suite.api.call(timeReportEndpoints.taskTimeReports, { id: taskId })).filter(
    (r) => r.message === note,
  );

describe('the running timer', () => {
  it('survives closing and reopening the engine, and a stop offline is logged once on reconnect', async () => {
    const taskId = await newTask('Timed work');
    const dir = dataDir();
    let e = await engineOn(dir);
    const events: unknown[] = [];
    e.events.onAny((name, payload) => {
      if (name === 'time.onDidChangeTimer') events.push(payload);
    });
    expect(await e.call('time.timer', {})).toBeNull();
    const started = await e.call('time.timerStart', { taskId, note: 'Pairing' });
    expect(started).toMatchObject({ taskId, taskName: 'Timed work', taskKnown: true, note: 'Pairing' });
    expect(events).toEqual([{ timer: started }]);
    // Starting it again on the same task changes nothing.
    expect(await e.call('time.timerStart', { taskId })).toEqual(started);
    await e.call('time.timerUpdate', { startedAt: started.startedAt, isBillable: true });

    await close(e);
    e = await engineOn(dir);
    expect(await e.call('time.timer', {})).toEqual({ ...started, isBillable: true });

    // Offline: the stop is logged locally at once and the timer is gone.
    suite.proxy.set({ dropBefore: { rate: 1 } });
    const note = 'Pairing on the timer';
    const logged = await e.call('time.timerStop', {
      startedAt: started.startedAt,
      minutes: 15,
      date: today,
      message: note,
      isBillable: true,
    });
    expect(await e.call('time.timer', {})).toBeNull();
    const local = (await e.call('time.mine', { from: today, to: today })).filter((r) => r.note === note);
    expect(local.map((r) => [r.id, r.reported, r.pending, r.isBillable])).toEqual([
      [logged.id, 15, true, true],
    ]);
    // A second stop of the same run (a double click, another window) logs nothing.
    await expect(
      e.call('time.timerStop', { startedAt: started.startedAt, minutes: 15, date: today, message: note }),
    ).rejects.toMatchObject({ type: 'conflict', field: 'startedAt' });
    expect(e.outbox.entries().filter((x) => x.kind === 'timeReport.create')).toHaveLength(1);

    // A restart while it waits, then the service is back.
    await close(e);
    e = await engineOn(dir);
    suite.proxy.reset();
    await e.drained();
    const listed = await reportsWith(taskId, note);
    expect(listed.map((r) => [r.reported, r.userId])).toEqual([[15, suite.svc.users.actingUserId]]);
    expect(e.outbox.realIdOf(logged.id)).toBe(listed[0]!.id);
  });

  it('runs one at a time: another task is refused naming the running one; discard logs nothing', async () => {
    const [first, second] = [await newTask('First timed'), await newTask('Second timed')];
    const e = await engineOn(dataDir());
    const running = await e.call('time.timerStart', { taskId: first });
    await expect(e.call('time.timerStart', { taskId: second })).rejects.toMatchObject({
      type: 'conflict',
      field: 'taskId',
      message: "A timer is already running on 'First timed': stop or discard it first",
    });
    await expect(e.call('time.timerStart', { taskId: 'NoSuch' })).rejects.toMatchObject({
      type: 'not-found',
      field: 'taskId',
    });
    expect(await e.call('time.timerDiscard', { startedAt: running.startedAt })).toEqual({ discarded: true });
    expect(await e.call('time.timerDiscard', { startedAt: running.startedAt })).toEqual({ discarded: false });
    expect(await e.call('time.timer', {})).toBeNull();
    expect((await e.call('time.timerStart', { taskId: second })).taskId).toBe(second);
    expect(e.outbox.entries().filter((x) => x.kind === 'timeReport.create')).toEqual([]);
  });

  it("follows a task created offline to the task's real id, and logs on it", async () => {
    const e = await engineOn(dataDir());
    await e.outbox.stop();
    const { id: localId } = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'Made offline',
    });
    const started = await e.call('time.timerStart', { taskId: localId });
    expect(started).toMatchObject({ taskId: localId, taskName: 'Made offline' });
    e.outbox.start();
    await e.drained();
    const realId = e.outbox.realIdOf(localId);
    expect(realId).not.toBe(localId);
    expect(await e.call('time.timer', {})).toMatchObject({ taskId: realId, taskName: 'Made offline' });
    await e.call('time.timerStop', {
      startedAt: started.startedAt,
      minutes: 5,
      date: today,
      message: 'Offline task',
    });
    await e.drained();
    expect((await reportsWith(realId, 'Offline task')).map((r) => r.reported)).toEqual([5]);
  });

  it('survives a SIGKILL of the process running it; a stop is either undone or logged whole', async () => {
    const taskId = await newTask('Killed while timing');
    const dir = dataDir();
    const spawnChild = async () => {
      const child = await startEngineProcess({
        dataDir: dir,
        baseUrl: suite.proxy.baseUrl,
        token: suite.svc.token,
        userId: suite.svc.users.actingUserId,
        serve: true,
      });
      await child.ready;
      return child;
    };
    const call = async <T>(child: Awaited<ReturnType<typeof spawnChild>>, channel: string, arg: unknown) => {
      const { result } = await child.send<{ result: IpcResult<T> }>({ op: 'call', channel, arg });
      if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
      return result.value;
    };
    let child = await spawnChild();
    await child.send({ op: 'sync' });
    const started = await call<TimerView>(child, 'time.timerStart', { taskId, note: 'Before the crash' });
    child.kill();
    await child.exited;

    // Reopened on the same files: still running, from the same moment.
    child = await spawnChild();
    expect(await call<TimerView | null>(child, 'time.timer', {})).toEqual(started);
    // Stopped, then killed at once: the report is queued and the timer gone, together.
    suite.proxy.set({ dropBefore: { rate: 1 } });
    await call(child, 'time.timerStop', {
      startedAt: started.startedAt,
      minutes: 42,
      date: today,
      message: 'Crash stop',
    });
    child.kill();
    await child.exited;
    suite.proxy.reset();

    const e = await engineOn(dir);
    expect(await e.call('time.timer', {})).toBeNull();
    await e.drained();
    expect((await reportsWith(taskId, 'Crash stop')).map((r) => r.reported)).toEqual([42]);
  });
});
