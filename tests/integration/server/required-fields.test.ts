import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService, type RunningService } from '../../support/service';
import { client, errorOf, type Client, type Method } from './client';

/**
 * Systematic contract checks over every write: each required body field, when missing or of a
 * wrong type, is refused with a 400 naming it; every path id that does not exist answers 404;
 * and a refusal changes nothing a read can see.
 */
let svc: RunningService;
let api: Client;
beforeAll(async () => {
  svc = await startService({ seed: 'demo' });
  api = client(svc);
});
afterAll(() => svc.close());

const u = SEED_IDS.users;
interface Write {
  method: Method;
  path: string;
  body: Record<string, unknown>;
  required: string[];
  /** A read whose answer must not change when the write is refused. */
  read: string;
}
const writes: Write[] = [
  {
    method: 'POST',
    path: '/tasks',
    body: { projectId: 'g7-p1', title: 't', fromUserId: u.admin },
    required: ['projectId', 'title', 'fromUserId'],
    read: '/project/g7-p1/tasks?closed=true',
  },
  {
    method: 'PUT',
    path: '/task/g7-t2/update',
    body: { userId: u.admin, title: 'x' },
    required: ['userId'],
    read: '/task/g7-t2',
  },
  {
    method: 'PUT',
    path: '/task/g7-t2/status',
    body: { userId: u.admin, statusId: SEED_IDS.statuses.done },
    required: ['userId', 'statusId'],
    read: '/task/g7-t2',
  },
  {
    method: 'POST',
    path: '/task/g7-t2/comment',
    body: { userId: u.admin, message: 'm' },
    required: ['userId'],
    read: '/task/g7-t2/messages',
  },
  {
    method: 'POST',
    path: '/task/g7-t2/reply',
    body: { userId: u.admin, actionRequiredUsedId: u.bob },
    required: ['userId', 'actionRequiredUsedId'],
    read: '/task/g7-t2/messages',
  },
  {
    method: 'POST',
    path: `/task/g7-t2/tag/${SEED_IDS.tags.backend}`,
    body: { userId: u.admin },
    required: ['userId'],
    read: '/task/g7-t2',
  },
  {
    method: 'DELETE',
    path: `/task/g7-t2/tag/${SEED_IDS.tags.backend}`,
    body: { userId: u.admin },
    required: ['userId'],
    read: '/task/g7-t2',
  },
  {
    method: 'PUT',
    path: '/task/g7-t2/custom-fields',
    body: { customFields: [] },
    required: ['customFields'],
    read: '/task/g7-t2',
  },
  {
    method: 'PUT',
    path: '/project/g7-p1/custom-fields',
    body: { customFields: [] },
    required: ['customFields'],
    read: '/project/g7-p1',
  },
  {
    method: 'PUT',
    path: '/project/g7-p1',
    body: { userId: u.admin, name: 'n' },
    required: ['userId'],
    read: '/project/g7-p1',
  },
  {
    method: 'POST',
    path: '/projects/new-folder',
    body: { createdByUserId: u.admin, name: 'f' },
    required: ['createdByUserId', 'name'],
    read: '/projects',
  },
  {
    method: 'POST',
    path: '/projects/new-project',
    body: { createdByUserId: u.admin, projectTemplateId: SEED_IDS.templates.project, name: 'p' },
    required: ['createdByUserId', 'projectTemplateId', 'name'],
    read: '/projects',
  },
  {
    method: 'POST',
    path: `/project/g7-p1/user/${u.guest}`,
    body: { userId: u.admin, access: 2 },
    required: ['userId', 'access'],
    read: '/project/g7-p1/users',
  },
  {
    method: 'PUT',
    path: `/project/g7-p1/user/${u.bob}`,
    body: { userId: u.admin, access: 2 },
    required: ['userId', 'access'],
    read: '/project/g7-p1/users',
  },
  {
    method: 'DELETE',
    path: `/project/g7-p3/user/${u.bob}`,
    body: { userId: u.admin },
    required: ['userId'],
    read: '/project/g7-p3/users',
  },
  {
    method: 'POST',
    path: '/attachments/upload-urls',
    body: { files: [{ name: 'a.txt' }] },
    required: ['files'],
    read: '/users',
  },
  {
    method: 'POST',
    path: '/crm/contacts',
    body: { createdByUserId: u.admin, firstName: 'a' },
    required: ['createdByUserId', 'firstName'],
    read: '/crm/contacts',
  },
  {
    method: 'PUT',
    path: '/crm/contact/demo-con-0-0',
    body: { updatedByUserId: u.admin },
    required: ['updatedByUserId'],
    read: '/crm/contact/demo-con-0-0',
  },
  {
    method: 'POST',
    path: '/crm/accounts',
    body: { createdByUserId: u.admin, name: 'a' },
    required: ['createdByUserId', 'name'],
    read: '/crm/accounts',
  },
  {
    method: 'PUT',
    path: '/crm/account/demo-acc-0',
    body: { updatedByUserId: u.admin },
    required: ['updatedByUserId'],
    read: '/crm/account/demo-acc-0',
  },
  {
    method: 'POST',
    path: '/dependencies',
    body: { type: 5, createdByUserId: u.admin, predecessorTaskId: 'g7-t2', successorTaskId: 'g7-t3' },
    required: ['type', 'createdByUserId'],
    read: '/task/g7-t2/dependencies',
  },
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
    required: ['createdByUserId', 'eventType', 'name', 'startDate'],
    read: '/events?startDate=2000-01-01&endDate=2100-01-01',
  },
];

describe('every write', () => {
  for (const w of writes) {
    it(`${w.method} ${w.path}: missing or mistyped required fields are refused by name and change nothing`, async () => {
      const before = (await api.get(w.read)).text;
      for (const field of w.required) {
        const missing = { ...w.body };
        delete missing[field];
        const res = await api.call(w.method, w.path, missing);
        expect(res.status, `${field} missing`).toBe(400);
        expect(errorOf(res)).toMatch(new RegExp(`^${field}: is required`));
        const mistyped = await api.call(w.method, w.path, { ...w.body, [field]: { wrong: true } });
        expect(mistyped.status, `${field} mistyped`).toBe(400);
        expect(errorOf(mistyped)).toMatch(new RegExp(`^${field}:`));
      }
      for (const notObject of ['[]', '"text"', '42']) {
        expect((await api.call(w.method, w.path, notObject)).status).toBe(400);
      }
      expect((await api.get(w.read)).text).toBe(before);
    });
  }
});

describe('every path id', () => {
  const reads = [
    '/user/ghost',
    '/project/ghost',
    '/project/ghost/users',
    '/projects/ghost/history',
    '/project/ghost/documents',
    '/document/ghost',
    '/project/ghost/tasks',
    '/user/ghost/action-required-tasks',
    '/user/ghost/assigned-tasks',
    '/tag/ghost/tasks',
    '/task/ghost',
    '/task/ghost/messages',
    '/crm/contact/ghost',
    '/crm/account/ghost',
    '/task/ghost/dependencies',
    '/event/ghost/dependencies',
    '/project/ghost/dependencies',
    '/event/ghost',
    '/attachments/ghost',
  ];
  it('answers 404 for an unknown id in a read', async () => {
    for (const path of reads) {
      const res = await api.get(path);
      expect(res.status, path).toBe(404);
      expect(errorOf(res)).toMatch(/not found/);
    }
  });

  it('answers 404 for an unknown id in a write with a valid body', async () => {
    const cases: [Method, string, unknown][] = [
      ['PUT', '/task/ghost/update', { userId: u.admin }],
      ['PUT', '/task/ghost/status', { userId: u.admin, statusId: SEED_IDS.statuses.done }],
      ['POST', '/task/ghost/comment', { userId: u.admin, message: 'm' }],
      ['POST', '/task/ghost/reply', { userId: u.admin, actionRequiredUsedId: u.bob }],
      ['POST', '/task/g7-t2/tag/ghost', { userId: u.admin }],
      ['PUT', '/task/ghost/custom-fields', { customFields: [] }],
      ['DELETE', '/task/ghost', undefined],
      ['PUT', '/project/ghost', { userId: u.admin }],
      ['PUT', '/project/ghost/custom-fields', { customFields: [] }],
      ['POST', `/project/ghost/user/${u.bob}`, { userId: u.admin, access: 2 }],
      ['DELETE', '/project/g7-p1/user/ghost', { userId: u.admin }],
      ['PUT', '/crm/contact/ghost', { updatedByUserId: u.admin }],
      ['DELETE', '/crm/account/ghost', undefined],
      ['DELETE', '/dependency/ghost', undefined],
      ['DELETE', '/event/ghost', undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await api.call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});
