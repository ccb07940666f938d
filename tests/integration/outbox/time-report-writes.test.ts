// Logging time through the outbox, against the real service on both profiles: the service has
// no idempotency key and (live) answers a create with `OK`, so a report whose answer is lost is
// looked up on what the live service lists (task, user, minutes, date, note, momentCreated on
// the service clock), never logged twice; two equal reports are two.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { formatLocalDate } from '../../../src/shared/api/common';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from './support';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { timeReportEndpoints } from '../../../src/shared/api/time-reports';

describe.each(SERVICE_PROFILES)('time reports through the outbox (%s profile)', (profile) => {
  let svc: RunningService;
  let api: ServiceClient;
  let proxy: FaultProxy;
  let taskId: string;
  const open: TestEngine[] = [];
  const today = formatLocalDate(new Date());

  beforeAll(async () => {
    svc = await startService({ seed: 'empty', profile });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    proxy = await startFaultProxy({ target: svc.baseUrl });
    taskId = (
      await api.call(taskEndpoints.createTask, {
        body: {
          projectId: SEED_IDS.workspace,
          title: 'Billable work',
          fromUserId: svc.users.admin,
        },
      })
    ).id;
  });
  afterEach(async () => {
    proxy.reset();
    for (const e of open.splice(0)) await e.close();
  });
  afterAll(async () => {
    await proxy.close();
    await svc.close();
  });

  const engine = async () => {
    const e = await testEngine(proxy.baseUrl, svc.token, svc.users.admin, { timeoutMs: 1_000 });
    open.push(e);
    await e.sync.now();
    return e;
  };
  const onService = async (note: string) =>
    (await api.call(timeReportEndpoints.taskTimeReports, { id: taskId })).filter(
      (r) => r.message === note.replace(/&/g, '&amp;'),
    );

  it('logs offline and sends once when answers are lost; two equal reports stay two', async () => {
    const e = await engine();
    await e.outbox.stop();
    const note = 'Lost answers & retries';
    const first = await e.call('time.log', {
      taskId,
      minutes: 90,
      date: today,
      message: note,
      isBillable: true,
    });
    const second = await e.call('time.log', {
      taskId,
      minutes: 90,
      date: today,
      message: note,
      isBillable: true,
    });
    // Shown at once, before anything was sent.
    const mine = await e.call('time.mine', { from: today, to: today });
    expect(
      mine
        .filter((r) => r.note === note)
        .map((r) => [r.id, r.pending])
        .sort(),
    ).toEqual(
      [
        [first.id, true],
        [second.id, true],
      ].sort(),
    );
    // The service applies each create; its answer never arrives (twice for the first).
    proxy.set({ dropAfter: { next: 3, match: /^POST \/2\.0\/task\/[^/]+\/time-report$/ } });
    e.outbox.start();
    await e.drained();
    expect(proxy.stats().injected.dropAfter).toBeGreaterThanOrEqual(2);
    const listed = await onService(note);
    expect(listed).toHaveLength(2);
    const real = [e.outbox.realIdOf(first.id), e.outbox.realIdOf(second.id)];
    expect(new Set(real)).toEqual(new Set(listed.map((r) => r.id)));
    expect(listed.every((r) => r.reported === 90 && r.userId === svc.users.admin)).toBe(true);
    // The cache holds each once, under the service's id, after a pull too.
    await e.sync.now();
    const after = (await e.call('time.mine', { from: today, to: today })).filter((r) => r.note === note);
    expect(after.map((r) => r.id).sort()).toEqual([...real].sort());
    expect(after.every((r) => !r.pending)).toBe(true);
  });

  it('an identical report made on another device before the send is not taken for this one', async () => {
    const e = await engine();
    await e.outbox.stop();
    const note = 'Twin on the web';
    const mine = await e.call('time.log', { taskId, minutes: 25, date: today, message: note });
    await api.call(timeReportEndpoints.createTimeReport, {
      id: taskId,
      body: {
        userId: svc.users.admin,
        reportedMinutes: 25,
        date: today,
        message: note,
      },
    });
    const twin = (await onService(note))[0]!;
    proxy.set({ dropAfter: { next: 1, match: /^POST \/2\.0\/task\/[^/]+\/time-report$/ } });
    e.outbox.start();
    await e.drained();
    const listed = await onService(note);
    expect(listed).toHaveLength(2);
    expect(e.outbox.realIdOf(mine.id)).not.toBe(twin.id);
    expect(listed.map((r) => r.id)).toContain(e.outbox.realIdOf(mine.id));
  });

  it('a report the service refuses is rolled back and kept with its error', async () => {
    const e = await engine();
    const far = formatLocalDate(new Date(Date.now() + 90 * 86_400_000));
    const logged = await e.call('time.log', { taskId, minutes: 30, date: far });
    await queueOf(e.outbox).idle();
    await e.drained().catch(() => undefined);
    const failed = e.outbox.entries('failed');
    expect(failed.map((x) => [x.kind, x.errorMessage])).toEqual([
      ['timeReport.create', expect.stringMatching(/^date: must not be after /)],
    ]);
    expect(
      (await e.call('time.mine', { from: far, to: far, refresh: false })).map((r) => r.id),
    ).not.toContain(logged.id);
  });

  it("a task's reports are fetched when it is opened, every user's", async () => {
    await api.call(timeReportEndpoints.createTimeReport, {
      id: taskId,
      body: {
        userId: svc.users.bob,
        reportedMinutes: 45,
        date: today,
        message: 'Bob was here',
      },
    });
    const e = await engine();
    const reports = await e.call('time.ofTask', { taskId });
    expect(reports.find((r) => r.note === 'Bob was here')).toMatchObject({
      userId: svc.users.bob,
      reported: 45,
    });
  });
});
