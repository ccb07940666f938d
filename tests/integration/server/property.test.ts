import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService, type Service } from '../../../src/server/app';
import { SEED_IDS } from '../../../src/server/seed/index';

/**
 * Throws random and malformed bodies, paths and queries at every endpoint (through
 * app.inject): never a 5xx, every 4xx has the error body, and a refused request leaves the
 * database exactly as it was.
 */
const dir = mkdtempSync(join(tmpdir(), 'wms-prop-'));
let service: Service;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function dump(): string {
  const tables = service.db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all();
  return tables
    .map(({ name }) => {
      const rows = service.db
        .prepare(`SELECT * FROM "${name}"`)
        .all()
        .map((r) => JSON.stringify(r));
      return `${name}:${rows.sort().join('\n')}`;
    })
    .join('\n\n');
}

const u = SEED_IDS.users;
const ids = {
  id: [
    'g7-p1',
    'g7-t1',
    'g7-t4',
    'demo-ev-0',
    'demo-dep-0',
    'demo-doc-0-0',
    'demo-con-0-0',
    'demo-acc-0',
    u.bob,
  ],
  userId: [u.admin, u.bob, u.guest],
  tagId: [SEED_IDS.tags.urgent],
  token: ['x'],
};

/** Every endpoint with a body that would succeed, so mutations of it probe each field. */
const endpoints: { method: string; path: string; body?: Record<string, unknown> }[] = [
  { method: 'GET', path: '/users' },
  { method: 'GET', path: '/user/:userId' },
  { method: 'GET', path: '/statuses' },
  { method: 'GET', path: '/task-types' },
  { method: 'GET', path: '/tags' },
  { method: 'GET', path: '/project-templates' },
  { method: 'GET', path: '/custom-fields' },
  { method: 'GET', path: '/projects' },
  { method: 'GET', path: '/project/:id' },
  {
    method: 'PUT',
    path: '/project/:id',
    body: { userId: u.admin, name: 'n', priority: 2, statusId: SEED_IDS.statuses.done },
  },
  {
    method: 'POST',
    path: '/projects/new-folder',
    body: { createdByUserId: u.admin, name: 'f', parentProjectId: 'g7-p0' },
  },
  {
    method: 'POST',
    path: '/projects/new-project',
    body: { createdByUserId: u.admin, projectTemplateId: SEED_IDS.templates.project, name: 'p' },
  },
  { method: 'GET', path: '/project/:id/users' },
  { method: 'POST', path: '/project/:id/user/:userId', body: { userId: u.admin, access: 2 } },
  { method: 'PUT', path: '/project/:id/user/:userId', body: { userId: u.admin, access: -5 } },
  { method: 'DELETE', path: '/project/:id/user/:userId', body: { userId: u.admin } },
  { method: 'GET', path: '/projects/:id/history' },
  { method: 'GET', path: '/project/:id/documents' },
  { method: 'GET', path: '/document/:id' },
  {
    method: 'PUT',
    path: '/project/:id/custom-fields',
    body: { customFields: [{ id: SEED_IDS.customFields.rag, value: 1 }] },
  },
  { method: 'GET', path: '/project/:id/tasks' },
  { method: 'GET', path: '/user/:userId/action-required-tasks' },
  { method: 'GET', path: '/user/:userId/assigned-tasks' },
  { method: 'GET', path: '/tag/:tagId/tasks' },
  { method: 'GET', path: '/task/:id' },
  {
    method: 'POST',
    path: '/tasks',
    body: { projectId: 'g7-p1', title: 't', fromUserId: u.admin, toUserId: u.bob, startDate: '2026-01-01' },
  },
  { method: 'GET', path: '/task/:id/messages' },
  { method: 'POST', path: '/task/:id/comment', body: { userId: u.admin, message: 'm' } },
  {
    method: 'POST',
    path: '/task/:id/reply',
    body: { userId: u.admin, actionRequiredUsedId: u.bob, message: 'm' },
  },
  { method: 'POST', path: '/task/:id/tag/:tagId', body: { userId: u.admin } },
  { method: 'DELETE', path: '/task/:id/tag/:tagId', body: { userId: u.admin } },
  {
    method: 'PUT',
    path: '/task/:id/status',
    body: { userId: u.admin, statusId: SEED_IDS.statuses.done, message: 'm' },
  },
  {
    method: 'PUT',
    path: '/task/:id/update',
    body: { userId: u.admin, title: 'x', progress: 5, deadline: null },
  },
  {
    method: 'PUT',
    path: '/task/:id/custom-fields',
    body: { customFields: [{ id: SEED_IDS.customFields.number, value: 2 }] },
  },
  { method: 'DELETE', path: '/task/:id' },
  { method: 'POST', path: '/attachments/upload-urls', body: { files: [{ name: 'a.png' }] } },
  { method: 'PUT', path: '/uploads/:token' },
  { method: 'GET', path: '/attachments/:id' },
  { method: 'GET', path: '/crm/contacts' },
  { method: 'POST', path: '/crm/contacts', body: { createdByUserId: u.admin, firstName: 'a' } },
  { method: 'GET', path: '/crm/contact/:id' },
  { method: 'PUT', path: '/crm/contact/:id', body: { updatedByUserId: u.admin, lastName: 'b' } },
  { method: 'DELETE', path: '/crm/contact/:id' },
  { method: 'GET', path: '/crm/accounts' },
  { method: 'POST', path: '/crm/accounts', body: { createdByUserId: u.admin, name: 'a' } },
  { method: 'GET', path: '/crm/account/:id' },
  { method: 'PUT', path: '/crm/account/:id', body: { updatedByUserId: u.admin, name: 'b' } },
  { method: 'DELETE', path: '/crm/account/:id' },
  { method: 'GET', path: '/task/:id/dependencies' },
  { method: 'GET', path: '/event/:id/dependencies' },
  { method: 'GET', path: '/project/:id/dependencies' },
  {
    method: 'POST',
    path: '/dependencies',
    body: { type: 5, createdByUserId: u.admin, task1Id: 'g7-t1', task2Id: 'g7-t2' },
  },
  { method: 'DELETE', path: '/dependency/:id' },
  { method: 'GET', path: '/events' },
  { method: 'GET', path: '/event/:id' },
  {
    method: 'POST',
    path: '/events',
    body: {
      createdByUserId: u.admin,
      eventType: 'company-event',
      name: 'e',
      startDate: '2026-01-01',
      endDate: '2026-01-02',
    },
  },
  { method: 'DELETE', path: '/event/:id' },
];

const segment = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)),
  fc.constantFrom('%', '%zz', '..', '%00', '%2F', 'a'.repeat(600)),
);

const body = (template: Record<string, unknown> | undefined) =>
  fc.oneof(
    fc.constant(undefined),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 30 }),
    template
      ? fc
          .tuple(fc.constantFrom(...Object.keys(template)), fc.jsonValue(), fc.boolean())
          .map(([key, value, drop]) => {
            const copy: Record<string, unknown> = { ...template };
            if (drop) delete copy[key];
            else copy[key] = value;
            return JSON.stringify(copy);
          })
      : fc.constant('{}'),
  );

const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'closed',
        'subfolders',
        'archived',
        'rootOnly',
        'startDate',
        'endDate',
        'eventTypes',
        'x',
      ),
      fc.oneof(fc.constantFrom('true', '0', '2026-01-01', 'company-event', ''), fc.string({ maxLength: 8 })),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));

const request = fc.integer({ min: 0, max: endpoints.length - 1 }).chain((i) => {
  const e = endpoints[i]!;
  const names = [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1] as keyof typeof ids);
  return fc.record({
    method: fc.oneof(
      { weight: 5, arbitrary: fc.constant(e.method) },
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
    ),
    params: fc.tuple(...names.map((n) => fc.oneof(fc.constantFrom(...ids[n]), segment))),
    body: body(e.body),
    query,
    contentType: fc.constantFrom(
      'application/json',
      'text/plain',
      'application/json; charset=utf-8',
      undefined,
    ),
    path: fc.constant(e.path),
  });
});

// The goodday profile reshapes every answer: it is held to the same, on fewer runs.
describe.each([
  ['spec', 400],
  ['goodday', 150],
] as const)('robustness (%s profile)', (profile, numRuns) => {
  beforeAll(() => {
    service = buildService({
      dbPath: join(dir, profile, 'db.sqlite'),
      filesDir: join(dir, profile, 'files'),
      tokens: ['t'],
      seed: 'demo',
      clock: () => new Date(2026, 0, 15, 9, 0, 0),
      profile,
    });
  });
  afterAll(() => service.app.close());

  it('never answers 5xx, always answers errors as {errorMessage}, and a refused request changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        let i = 0;
        const path = r.path.replace(/:(\w+)/g, () => String(r.params[i++]));
        const before = dump();
        const headers: Record<string, string> = { 'svc-api-token': 't' };
        if (r.contentType && r.body !== undefined) headers['content-type'] = r.contentType;
        const res = await service.app.inject({
          method: r.method as 'GET',
          url: `/2.0${path}${r.query ? `?${r.query}` : ''}`,
          headers,
          ...(r.body !== undefined ? { payload: r.body } : {}),
        });
        expect(res.statusCode, `${r.method} ${path} ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const parsed = JSON.parse(res.body) as { errorMessage?: unknown };
          expect(typeof parsed.errorMessage).toBe('string');
          expect(dump(), `${r.method} ${path} changed data though refused: ${res.body}`).toBe(before);
        }
      }),
      { numRuns, seed: 20261121 },
    );
    const alive = await service.app.inject({
      method: 'GET',
      url: '/2.0/users',
      headers: { 'svc-api-token': 't' },
    });
    expect(alive.statusCode).toBe(200);
    // Each run dumps the whole seeded database twice: generous on a shared 2-core machine.
  }, 300_000);
});
