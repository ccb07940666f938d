import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../src/shared/api/common';
import { UsersResponse } from '../../../src/shared/api/org';
import { errorOf, serviceSuite } from './client';

const { api, service } = serviceSuite();

describe('HTTP conventions', () => {
  it('accepts the token in svc-api-token, gd-api-token or as a query parameter', async () => {
    for (const headers of [
      { 'svc-api-token': service().token },
      { 'gd-api-token': service().token },
    ] as Record<string, string>[]) {
      const res = await api.get('/users', headers);
      expect(res.status).toBe(200);
      UsersResponse.parse(res.json);
    }
    expect((await api.get(`/users?gd-api-token=${service().token}`, {})).status).toBe(200);
    expect((await api.get(`/users?svc-api-token=${service().token}`, {})).status).toBe(200);
  });

  it('answers 401 with an error body for a missing or wrong token', async () => {
    for (const headers of [{}, { 'svc-api-token': 'nope' }] as Record<string, string>[]) {
      const res = await api.get('/users', headers);
      expect(res.status).toBe(401);
      expect(errorOf(res)).toMatch(/token/);
    }
  });

  it('answers 404 for an unknown path and 405 for a wrong method', async () => {
    const missing = await api.get('/no-such-thing');
    expect(missing.status).toBe(404);
    ErrorBody.parse(missing.json);
    const wrong = await api.call('PATCH', '/users');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect((await api.post('/task/abc')).status).toBe(405);
  });

  it('tolerates double and trailing slashes', async () => {
    const res = await fetch(service().baseUrl.replace('/2.0', '//2.0//users/'), {
      headers: { 'svc-api-token': service().token },
    });
    expect(res.status).toBe(200);
  });

  it('answers 400 naming the problem for malformed JSON', async () => {
    const res = await api.post('/tasks', '{"projectId":');
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatch(/JSON/);
  });

  it('answers 400 naming the missing field', async () => {
    const res = await api.post('/tasks', {});
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatch(/^projectId: is required/);
  });

  it('accepts a JSON content type with no body and JSON bodies on GET and DELETE', async () => {
    const res = await api.call('GET', '/users', undefined, {
      'svc-api-token': service().token,
      'content-type': 'application/json',
    });
    expect(res.status).toBe(200);
    const withBody = await fetch(`${service().baseUrl}/tag/tag-urgent/tasks`, {
      method: 'GET',
      headers: { 'svc-api-token': service().token, 'content-type': 'application/json' },
    });
    expect(withBody.status).toBe(200);
    const del = await api.call('DELETE', '/dependency/unknown', undefined, {
      'svc-api-token': service().token,
      'content-type': 'application/json',
    });
    expect(del.status).toBe(404);
  });

  it('answers 413 for a body over the cap', async () => {
    const res = await api.post('/tasks', { title: 'x'.repeat(3 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(errorOf(res)).toMatch(/too large/);
  });

  it('answers 400 for a malformed URL', async () => {
    const res = await api.get('/task/%E0%A4%A');
    expect(res.status).toBe(400);
    ErrorBody.parse(res.json);
  });

  it('rejects repeated or non-boolean flags', async () => {
    const res = await api.get('/projects?archived=maybe');
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatch(/^archived:/);
    expect((await api.get('/projects?archived=1&archived=0')).status).toBe(400);
    expect((await api.get('/projects?archived=TRUE')).status).toBe(200);
  });
});
