// Rule 6 on the service's clock: every kind of create whose answer is lost (the service applied
// it, the connection closed before its answer) is looked up, not sent again, whatever zone the
// engine's process is in and whichever clock the service stamps on. The engine runs in a child
// process with its own `TZ`; the service runs here: the spec profile stamping local time of this
// process's zone (set to the engine's, as the bundled service shares the machine's, or to UTC),
// and the goodday profile, which answers as GoodDay's live service does (UTC moments, no
// `isFolder`, 6-character ids, "OK" write answers). Each item exists once on the service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/main/core/api/client';
import { SEED_IDS } from '../../../src/server/seed/index';
import type { IpcResult } from '../../../src/shared/ipc/channel';
import type { SyncStatus } from '../../../src/shared/ipc/sync';
import type { ServiceClock } from '../../../src/shared/service-clock';
import type { CallAnswer } from '../../support/engine-commands';
import { startEngineProcess, type EngineProcess } from '../../support/engine-process';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startService, type RunningService, type ServiceProfileName } from '../../support/service';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { memberEndpoints } from '../../../src/shared/api/members';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { messageEndpoints } from '../../../src/shared/api/messages';
import { eventEndpoints } from '../../../src/shared/api/events';
import { crmEndpoints } from '../../../src/shared/api/crm';
import { dependencyEndpoints } from '../../../src/shared/api/dependencies';

const ZONES = ['Asia/Taipei', 'America/Los_Angeles', 'UTC'] as const;

interface Case {
  profile: ServiceProfileName;
  /** The zone of the engine's process. */
  zone: string;
  /** How the service stamps: local time of its own zone (the spec), or UTC (GoodDay's). */
  service: string;
  /** The service process's zone (a spec service stamps local time in it). */
  serviceZone: string;
  /** The clock the engine must learn (on a UTC machine both read alike: not asserted). */
  clock: ServiceClock;
}

const CASES: Case[] = ZONES.flatMap((zone): Case[] => [
  // As the bundled service: the engine and the service share the machine's zone.
  { profile: 'spec', zone, service: 'spec, same zone', serviceZone: zone, clock: 'local' },
  // A spec service on UTC stamps as GoodDay's live service does.
  ...(zone === 'UTC'
    ? []
    : [
        {
          profile: 'spec' as const,
          zone,
          service: 'spec, stamping UTC',
          serviceZone: 'UTC',
          clock: 'utc' as const,
        },
      ]),
  // The live-faithful profile: UTC moments, no isFolder, 6-character ids, "OK" write answers.
  { profile: 'goodday', zone, service: 'goodday', serviceZone: zone, clock: 'utc' },
]);

const savedTz = process.env.TZ;
let open: { child?: EngineProcess; proxy?: FaultProxy; svc?: RunningService; dataDir?: string } = {};
afterEach(async () => {
  open.child?.kill();
  await open.proxy?.close();
  await open.svc?.close();
  if (open.dataDir) rmSync(open.dataDir, { recursive: true, force: true });
  open = {};
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('lost create answers, on the service clock', () => {
  it.each(CASES)(
    'engine in $zone, service $service: each create is made once',
    async (c) => {
      // The service stamps local time of this process's zone from here on.
      process.env.TZ = c.serviceZone;
      const svc = (open.svc = await startService({ seed: 'empty', profile: c.profile }));
      const proxy = (open.proxy = await startFaultProxy({ target: svc.baseUrl }));
      const api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
      const dataDir = (open.dataDir = mkdtempSync(join(tmpdir(), 'lost-answers-')));
      const logs: string[] = [];
      const child = (open.child = await startEngineProcess({
        dataDir,
        baseUrl: proxy.baseUrl,
        token: svc.token,
        userId: svc.users.actingUserId,
        timeoutMs: 1_000,
        serve: true,
        timeZone: c.zone,
        onLog: (line) => logs.push(line),
      }));
      await child.ready;
      await child.send({ op: 'sync' });

      const call = async (channel: string, arg: unknown): Promise<{ id?: string }> => {
        const { result } = await child.send<CallAnswer>({ op: 'call', channel, arg });
        if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
        return result.value as { id?: string };
      };
      /** Makes the write's first request reach the service and lose its answer, then waits for it. */
      const lost = async (match: RegExp, channel: string, arg: unknown): Promise<{ id?: string }> => {
        const before = proxy.stats().injected.dropAfter;
        proxy.set({ dropAfter: { next: 1, match } });
        const value = await call(channel, arg);
        const until = Date.now() + 30_000;
        while (proxy.stats().injected.dropAfter === before) {
          if (Date.now() > until) throw new Error(`${channel}: its request never went out`);
          await new Promise((r) => setTimeout(r, 20));
        }
        return value;
      };

      const tag = `Lost ${c.zone} ${c.service}`;
      const day = new Date().toISOString().slice(0, 10);
      const folder = await lost(/^POST \/2\.0\/projects\/new-folder$/, 'projects.createFolder', {
        name: `${tag} folder`,
        parentProjectId: SEED_IDS.workspace,
      });
      const project = await lost(/^POST \/2\.0\/projects\/new-project$/, 'projects.create', {
        name: `${tag} project`,
        projectTemplateId: SEED_IDS.templates.project,
        parentProjectId: folder.id,
      });
      await lost(/^POST \/2\.0\/project\/[^/]+\/user\//, 'members.add', {
        projectId: project.id,
        userId: svc.users.bob,
        access: 2,
      });
      const task = await lost(/^POST \/2\.0\/tasks$/, 'tasks.create', {
        projectId: SEED_IDS.workspace,
        title: `${tag} task`,
      });
      const subtask = await lost(/^POST \/2\.0\/tasks$/, 'tasks.create', {
        projectId: SEED_IDS.workspace,
        title: `${tag} subtask`,
        parentTaskId: task.id,
      });
      await lost(/^POST \/2\.0\/task\/[^/]+\/comment$/, 'tasks.comment', {
        taskId: task.id,
        message: `${tag} comment`,
      });
      await lost(/^POST \/2\.0\/task\/[^/]+\/reply$/, 'tasks.reply', {
        taskId: task.id,
        actionRequiredUserId: svc.users.bob,
        message: `${tag} reply`,
      });
      await lost(/^PUT \/2\.0\/task\/[^/]+\/status$/, 'tasks.setStatus', {
        taskId: task.id,
        statusId: SEED_IDS.statuses.inProgress,
        message: `${tag} started`,
      });
      await lost(/^POST \/2\.0\/events$/, 'events.create', {
        eventType: 'project-milestone',
        name: `${tag} milestone`,
        startDate: day,
        projectId: SEED_IDS.workspace,
      });
      await lost(/^POST \/2\.0\/crm\/contacts$/, 'crm.createContact', {
        firstName: `${tag} contact`,
        lastName: 'Lost',
      });
      await lost(/^POST \/2\.0\/crm\/accounts$/, 'crm.createAccount', { name: `${tag} account` });
      await lost(/^POST \/2\.0\/dependencies$/, 'dependencies.create', {
        type: 5,
        predecessor: { kind: 'task', id: task.id },
        successor: { kind: 'task', id: subtask.id },
      });
      // One create answered: the freshest stamp there is, which settles the clock.
      await call('tasks.create', { projectId: SEED_IDS.workspace, title: `${tag} answered` });

      const status = await child.send<{ pending: number; failed: number; stuck: number }>({
        op: 'drain',
        timeoutMs: 60_000,
      });
      expect(status, logs.join('\n')).toMatchObject({ pending: 0, failed: 0, stuck: 0 });
      expect(proxy.stats().injected.dropAfter).toBe(12);
      const { result } = await child.send<{ result: IpcResult<SyncStatus> }>({
        op: 'call',
        channel: 'sync.status',
        arg: {},
      });
      if (c.zone !== 'UTC') expect(result.ok && result.value.serviceClock).toBe(c.clock);

      const once = <T>(items: readonly T[], named: (item: T) => boolean): T => {
        const found = items.filter(named);
        expect(found).toHaveLength(1);
        return found[0]!;
      };
      const projects = await api.call(projectEndpoints.projects);
      once(projects, (p) => p.name === `${tag} folder`);
      const made = once(projects, (p) => p.name === `${tag} project`);
      once(await api.call(memberEndpoints.projectUsers, { id: made.id }), (u) => u.id === svc.users.bob);
      const tasks = await api.call(taskEndpoints.projectTasks, {
        id: SEED_IDS.workspace,
        query: { closed: true },
      });
      const parent = once(tasks, (t) => t.name === `${tag} task`);
      const child2 = once(tasks, (t) => t.name === `${tag} subtask`);
      expect(child2.parentTaskId).toBe(parent.id);
      once(tasks, (t) => t.name === `${tag} answered`);
      const messages = await api.call(messageEndpoints.taskMessages, { id: parent.id });
      for (const text of ['comment', 'reply', 'started'])
        once(messages, (m) => m.message === `${tag} ${text}`);
      once(
        await api.call(eventEndpoints.events, { query: { startDate: day, endDate: day } }),
        (e) => e.name === `${tag} milestone`,
      );
      once(await api.call(crmEndpoints.crmContacts), (x) => x.firstName === `${tag} contact`);
      once(await api.call(crmEndpoints.crmAccounts), (x) => x.name === `${tag} account`);
      const { successors } = await api.call(dependencyEndpoints.dependencies, {
        kind: 'task',
        id: parent.id,
      });
      once(successors, (d) => d.id !== '');
      await child.send({ op: 'close' });
    },
    120_000,
  );
});
