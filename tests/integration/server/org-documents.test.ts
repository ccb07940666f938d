import { describe, expect, it } from 'vitest';
import { CUSTOM_FIELD_TYPES, CustomFieldsResponse } from '../../../src/shared/api/custom-fields';
import {
  ProjectTemplatesResponse,
  StatusesResponse,
  TagsResponse,
  TaskTypesResponse,
  User,
  UsersResponse,
} from '../../../src/shared/api/org';
import { TaskDetail } from '../../../src/shared/api/tasks';
import { Document, DocumentsResponse } from '../../../src/shared/api/documents';
import { errorOf, serviceSuite } from './client';

const { api, seeded } = serviceSuite({ seed: 'demo' });

describe('organization reads', () => {
  it('answers users, one user, statuses with isClosed, task types, tags, templates', async () => {
    const users = UsersResponse.parse((await api.get('/users')).json);
    expect(users.map((u) => u.id)).toContain(seeded.actingUserId);
    expect(User.parse((await api.get(`/user/${seeded.bob}`)).json).id).toBe(seeded.bob);
    expect(errorOf(await api.get('/user/ghost'))).toMatch(/user/);
    const statuses = StatusesResponse.parse((await api.get('/statuses')).json);
    expect(statuses.some((s) => s.isClosed)).toBe(true);
    expect(statuses.some((s) => !s.isClosed)).toBe(true);
    expect(TaskTypesResponse.parse((await api.get('/task-types')).json).length).toBeGreaterThan(0);
    expect(TagsResponse.parse((await api.get('/tags')).json).length).toBeGreaterThan(0);
    expect(ProjectTemplatesResponse.parse((await api.get('/project-templates')).json).length).toBeGreaterThan(
      0,
    );
  });

  it('defines custom fields of all 15 types', async () => {
    const fields = CustomFieldsResponse.parse((await api.get('/custom-fields')).json);
    expect(new Set(fields.map((f) => f.type))).toEqual(new Set(Object.values(CUSTOM_FIELD_TYPES)));
    expect(fields.find((f) => f.type === CUSTOM_FIELD_TYPES.currency)?.params).toMatchObject({
      decimalPlaces: 2,
      symbol: '€',
    });
  });
});

describe('documents', () => {
  it('lists a project’s documents (with subfolders) and reads one with content', async () => {
    const folder = 'g7-p0';
    expect(DocumentsResponse.parse((await api.get(`/project/${folder}/documents`)).json)).toEqual([]);
    const deep = DocumentsResponse.parse(
      (await api.get(`/project/${folder}/documents?subfolders=true`)).json,
    );
    expect(deep.length).toBeGreaterThan(0);
    const doc = Document.parse((await api.get(`/document/${deep[0]!.id}`)).json);
    expect(doc.content.length).toBeGreaterThan(0);
    expect(doc).toMatchObject({ id: deep[0]!.id, projectId: deep[0]!.projectId });
    expect((await api.get('/document/nope')).status).toBe(404);
    expect((await api.get('/project/nope/documents')).status).toBe(404);
  });
});

describe('demo seed', () => {
  it('has a request-form task with formSubmission and no creator', async () => {
    const t = TaskDetail.parse((await api.get('/task/g7-t1')).json);
    expect(t.createdByUserId).toBeNull();
    expect(t.formSubmission?.requestFormName).toBe('IT request');
    expect(t.formSubmission?.formFields.map((f) => f.config.type)).toEqual(['dropdown', 'textarea']);
  });
});
