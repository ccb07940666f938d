import { describe, expect, it } from 'vitest';
import { CreateTaskResponse, TaskDetail } from '../../../src/shared/api/tasks';
import { CreateProjectResponse } from '../../../src/shared/api/projects';
import {
  CrmAccountDetail,
  CrmAccountsResponse,
  CrmContactDetail,
  CrmContactsResponse,
} from '../../../src/shared/api/crm';
import { SEED_IDS } from '../../../src/server/seed/index';
import { errorOf, serviceSuite } from './client';

const { api, seeded } = serviceSuite();
const admin = seeded.actingUserId;

async function createAccount(body: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/crm/accounts', { createdByUserId: admin, name: 'Acme', ...body });
  expect(res.status, res.text).toBe(200);
  expect(res.json).toBe('OK');
  return res.headers.get('x-created-id')!;
}

async function createContact(body: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/crm/contacts', { createdByUserId: admin, firstName: 'Maya', ...body });
  expect(res.status, res.text).toBe(200);
  expect(res.json).toBe('OK');
  return res.headers.get('x-created-id')!;
}

describe('CRM accounts', () => {
  it('creates (owner in either spelling), lists, reads, updates and deletes', async () => {
    const id = await createAccount({
      email: 'a@acme.test',
      contactOwnerUserId: seeded.bob,
      customFieldsData: { [SEED_IDS.customFields.rag]: 1 },
    });
    const list = CrmAccountsResponse.parse((await api.get('/crm/accounts')).json);
    expect(list.find((a) => a.id === id)).toMatchObject({
      name: 'Acme',
      accountOwnerUserId: seeded.bob,
      contacts: [],
      isDeleted: false,
    });
    const contact = await createContact({ crmAccountId: id });
    const detail = CrmAccountDetail.parse((await api.get(`/crm/account/${id}`)).json);
    expect(detail.account).toMatchObject({
      id,
      companyId: SEED_IDS.companyId,
      contactOwnerUserId: seeded.bob,
      customFieldsData: { [SEED_IDS.customFields.rag]: 1 },
    });
    expect(detail.contacts).toEqual([contact]);
    expect(
      (
        await api.put(`/crm/account/${id}`, {
          updatedByUserId: admin,
          website: 'https://acme.test',
          notes: null,
        })
      ).json,
    ).toBe('OK');
    expect(CrmAccountDetail.parse((await api.get(`/crm/account/${id}`)).json).account.website).toBe(
      'https://acme.test',
    );
    expect((await api.del(`/crm/account/${id}`)).json).toBe('OK');
    expect((await api.get(`/crm/account/${id}`)).status).toBe(404);
    expect(CrmAccountsResponse.parse((await api.get('/crm/accounts')).json).some((a) => a.id === id)).toBe(
      false,
    );
  });

  it('refuses bad account input', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'x' }, /^createdByUserId: is required/],
      [{ createdByUserId: admin }, /^name: is required/],
      [{ createdByUserId: admin, name: 'x', accountOwnerUserId: 'ghost' }, /^accountOwnerUserId:/],
      [
        { createdByUserId: admin, name: 'x', customFieldsData: { [SEED_IDS.customFields.checkbox]: 'y' } },
        /^customFieldsData\./,
      ],
      [{ createdByUserId: admin, name: 'x', customFieldsData: [] }, /^customFieldsData:/],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/crm/accounts', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res)).toMatch(message);
    }
    expect((await api.put('/crm/account/nope', { updatedByUserId: admin })).status).toBe(404);
    const id = await createAccount();
    expect((await api.put(`/crm/account/${id}`, {})).status).toBe(400);
  });
});

describe('CRM contacts', () => {
  it('creates, lists, links to tasks, updates and deletes', async () => {
    const account = await createAccount();
    const id = await createContact({
      lastName: 'Keller',
      contactType: SEED_IDS.contactTypes.customer,
      contactOwnerUserId: seeded.cleo,
    });
    const listed = CrmContactsResponse.parse((await api.get('/crm/contacts')).json).find((c) => c.id === id);
    expect(listed).toMatchObject({
      firstName: 'Maya',
      lastName: 'Keller',
      contactOwnerUserId: seeded.cleo,
      crmAccountId: null,
      isDeleted: false,
    });
    const project = CreateProjectResponse.parse(
      (
        await api.post('/projects/new-project', {
          createdByUserId: admin,
          projectTemplateId: SEED_IDS.templates.project,
          name: 'CRM',
        })
      ).json,
    ).id;
    const task = CreateTaskResponse.parse(
      (await api.post('/tasks', { projectId: project, title: 'Call Maya', fromUserId: admin })).json,
    );
    await api.put(`/task/${task.id}/update`, { userId: admin, crmContactIds: [id], crmAccountId: account });
    expect(TaskDetail.parse((await api.get(`/task/${task.id}`)).json)).toMatchObject({
      crmAccountId: account,
      crmContactIds: [id],
    });
    const detail = CrmContactDetail.parse((await api.get(`/crm/contact/${id}`)).json);
    expect(detail.tasks).toEqual([
      {
        id: task.id,
        shortId: task.shortId,
        taskStatusId: expect.any(String),
        taskTypeId: expect.any(String),
        title: 'Call Maya',
      },
    ]);
    await api.put(`/crm/contact/${id}`, { updatedByUserId: admin, crmAccountId: account, phone: '+1' });
    expect(CrmContactDetail.parse((await api.get(`/crm/contact/${id}`)).json).contact).toMatchObject({
      crmAccountId: account,
      phone: '+1',
    });
    expect((await api.del(`/crm/contact/${id}`, { updatedByUserId: admin })).json).toBe('OK');
    expect((await api.get(`/crm/contact/${id}`)).status).toBe(404);
    expect(TaskDetail.parse((await api.get(`/task/${task.id}`)).json).crmContactIds).toEqual([]);
  });

  it('refuses bad contact input', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ firstName: 'x' }, /^createdByUserId: is required/],
      [{ createdByUserId: admin }, /^firstName: is required/],
      [{ createdByUserId: admin, firstName: 'x', contactType: 'nope' }, /^contactType:/],
      [{ createdByUserId: admin, firstName: 'x', crmAccountId: 'nope' }, /^crmAccountId:/],
      [{ createdByUserId: admin, firstName: 'x', contactOwnerUserId: 'ghost' }, /^contactOwnerUserId:/],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/crm/contacts', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res)).toMatch(message);
    }
    expect((await api.get('/crm/contact/nope')).status).toBe(404);
    expect((await api.del('/crm/contact/nope')).status).toBe(404);
  });
});
