import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { errorOf, serviceSuite, type Method } from './client';

/**
 * Systematic contract checks over every write: each required body field, when missing or of a
 * wrong type, is refused with a 400 naming it; every path id that does not exist answers 404;
 * and a refusal changes nothing a read can see.
 */
const { api } = serviceSuite({ seed: 'demo' });

const u = SEED_IDS.users;
/**
 * A write: method, path, the body fields it requires (with valid values), a read whose answer
 * must not change when the write is refused, and optional fields sent beside the required ones.
 */
type Write = [
  method: Method,
  path: string,
  required: Record<string, unknown>,
  read: string,
  optional?: Record<string, unknown>,
];
const writes: Write[] = [
  [
    'POST',
    '/tasks',
    { projectId: 'g7-p1', title: 't', fromUserId: u.admin },
    '/project/g7-p1/tasks?closed=true',
  ],
  ['PUT', '/task/g7-t2/update', { userId: u.admin }, '/task/g7-t2', { title: 'x' }],
  ['PUT', '/task/g7-t2/status', { userId: u.admin, statusId: SEED_IDS.statuses.done }, '/task/g7-t2'],
  ['POST', '/task/g7-t2/comment', { userId: u.admin }, '/task/g7-t2/messages', { message: 'm' }],
  ['POST', '/task/g7-t2/reply', { userId: u.admin, actionRequiredUsedId: u.bob }, '/task/g7-t2/messages'],
  ['POST', `/task/g7-t2/tag/${SEED_IDS.tags.backend}`, { userId: u.admin }, '/task/g7-t2'],
  ['DELETE', `/task/g7-t2/tag/${SEED_IDS.tags.backend}`, { userId: u.admin }, '/task/g7-t2'],
  ['PUT', '/task/g7-t2/custom-fields', { customFields: [] }, '/task/g7-t2'],
  ['PUT', '/project/g7-p1/custom-fields', { customFields: [] }, '/project/g7-p1'],
  ['PUT', '/project/g7-p1', { userId: u.admin }, '/project/g7-p1', { name: 'n' }],
  ['POST', '/projects/new-folder', { createdByUserId: u.admin, name: 'f' }, '/projects'],
  [
    'POST',
    '/projects/new-project',
    { createdByUserId: u.admin, projectTemplateId: SEED_IDS.templates.project, name: 'p' },
    '/projects',
  ],
  ['POST', `/project/g7-p1/user/${u.guest}`, { userId: u.admin, access: 2 }, '/project/g7-p1/users'],
  ['PUT', `/project/g7-p1/user/${u.bob}`, { userId: u.admin, access: 2 }, '/project/g7-p1/users'],
  ['DELETE', `/project/g7-p3/user/${u.bob}`, { userId: u.admin }, '/project/g7-p3/users'],
  ['POST', '/attachments/upload-urls', { files: [{ name: 'a.txt' }] }, '/users'],
  ['POST', '/crm/contacts', { createdByUserId: u.admin, firstName: 'a' }, '/crm/contacts'],
  ['PUT', '/crm/contact/demo-con-0-0', { updatedByUserId: u.admin }, '/crm/contact/demo-con-0-0'],
  ['POST', '/crm/accounts', { createdByUserId: u.admin, name: 'a' }, '/crm/accounts'],
  ['PUT', '/crm/account/demo-acc-0', { updatedByUserId: u.admin }, '/crm/account/demo-acc-0'],
  [
    'POST',
    '/dependencies',
    { type: 5, createdByUserId: u.admin },
    '/task/g7-t2/dependencies',
    { predecessorTaskId: 'g7-t2', successorTaskId: 'g7-t3' },
  ],
  [
    'POST',
    '/events',
    { createdByUserId: u.admin, eventType: 'company-event', name: 'e', startDate: '2026-01-01' },
    '/events?startDate=2000-01-01&endDate=2100-01-01',
    { endDate: '2026-01-02' },
  ],
];

describe('every write', () => {
  for (const [method, path, required, read, optional = {}] of writes) {
    it(`${method} ${path}: missing or mistyped required fields are refused by name and change nothing`, async () => {
      const body = { ...required, ...optional };
      const before = (await api.get(read)).text;
      for (const field of Object.keys(required)) {
        const missing: Record<string, unknown> = { ...body };
        delete missing[field];
        const res = await api.call(method, path, missing);
        expect(res.status, `${field} missing`).toBe(400);
        expect(errorOf(res)).toMatch(new RegExp(`^${field}: is required`));
        const mistyped = await api.call(method, path, { ...body, [field]: { wrong: true } });
        expect(mistyped.status, `${field} mistyped`).toBe(400);
        expect(errorOf(mistyped)).toMatch(new RegExp(`^${field}:`));
      }
      for (const notObject of ['[]', '"text"', '42']) {
        expect((await api.call(method, path, notObject)).status).toBe(400);
      }
      expect((await api.get(read)).text).toBe(before);
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
