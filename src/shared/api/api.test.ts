import { describe, expect, it } from 'vitest';
import { BooleanParam, DateString, LocalTimestamp, formatLocalTimestamp } from './common';
import { SetCustomFieldsBody, checkCustomFieldValue, CUSTOM_FIELD_TYPES } from './custom-fields';
import { CreateTaskBody, ProjectTasksQuery, UpdateTaskBody } from './tasks';
import { ReplyBody } from './messages';
import { CreateDependencyBody } from './dependencies';
import { EventsQuery, CreateEventBody } from './events';

describe('shared API primitives', () => {
  it('accepts only real calendar dates', () => {
    expect(DateString.safeParse('2024-02-29').success).toBe(true);
    expect(DateString.safeParse('2023-02-29').success).toBe(false);
    expect(DateString.safeParse('2024-1-01').success).toBe(false);
  });

  it('parses boolean-ish query values and rejects others', () => {
    expect(['true', 'TRUE', '1', true].map((v) => BooleanParam.parse(v))).toEqual([true, true, true, true]);
    expect(['false', '0', false].map((v) => BooleanParam.parse(v))).toEqual([false, false, false]);
    expect(BooleanParam.safeParse('yes').success).toBe(false);
    expect(ProjectTasksQuery.parse({})).toEqual({ closed: false, subfolders: false });
  });

  it('formats zone-less local timestamps with 6 fraction digits', () => {
    const text = formatLocalTimestamp(new Date(2026, 0, 2, 3, 4, 5, 67), ' ', 8);
    expect(text).toBe('2026-01-02 03:04:05.067008');
    expect(LocalTimestamp.safeParse(text).success).toBe(true);
    expect(LocalTimestamp.safeParse('2026-01-02T03:04:05Z').success).toBe(false);
  });
});

describe('request spellings', () => {
  it('accepts start-date/end-date and explicit nulls on create', () => {
    const body = CreateTaskBody.parse({
      projectId: 'p',
      title: 't',
      fromUserId: 'u',
      'start-date': '2026-01-01',
      toUserId: null,
    });
    expect(body.startDate).toBe('2026-01-01');
    expect(body.toUserId).toBeNull();
    expect(UpdateTaskBody.parse({ userId: 'u', 'end-date': null }).endDate).toBeNull();
  });

  it('accepts both spellings of the reply action-required user', () => {
    expect(ReplyBody.parse({ userId: 'u', actionRequiredUserId: 'v' }).actionRequiredUsedId).toBe('v');
    expect(ReplyBody.parse({ userId: 'u', actionRequiredUsedId: 'w' }).actionRequiredUsedId).toBe('w');
    expect(ReplyBody.safeParse({ userId: 'u' }).success).toBe(false);
  });

  it('accepts numbered dependency names and requires exactly one of each side', () => {
    const dep = CreateDependencyBody.parse({ type: 5, createdByUserId: 'u', task1Id: 'a', event2Id: 'b' });
    expect(dep.predecessorTaskId).toBe('a');
    expect(dep.successorEventId).toBe('b');
    const two = CreateDependencyBody.safeParse({
      type: 5,
      createdByUserId: 'u',
      predecessorTaskId: 'a',
      predecessorEventId: 'c',
      successorTaskId: 'b',
    });
    expect(two.success).toBe(false);
  });

  it('parses customFields sent as a JSON string', () => {
    const parsed = SetCustomFieldsBody.parse({ customFields: '[{"id":"f","value":3}]' });
    expect(parsed.customFields).toEqual([{ id: 'f', value: 3 }]);
    expect(SetCustomFieldsBody.safeParse({ customFields: 'not json' }).success).toBe(false);
  });

  it('checks event rules per type', () => {
    const base = { createdByUserId: 'u', name: 'n', startDate: '2026-01-01' };
    expect(
      CreateEventBody.safeParse({ ...base, eventType: 'project-milestone', projectId: 'p' }).success,
    ).toBe(true);
    expect(
      CreateEventBody.safeParse({ ...base, eventType: 'personal-sick', endDate: '2026-01-02' }).success,
    ).toBe(false);
    expect(
      EventsQuery.safeParse({ startDate: '2026-01-01', endDate: '2026-01-31', eventTypes: 'x' }).success,
    ).toBe(false);
  });

  it('checks custom-field values against the field type', () => {
    const dropdown = {
      name: 'd',
      type: CUSTOM_FIELD_TYPES.dropdown,
      params: { listItems: { '1': 'a', '2': 'b' } },
    };
    expect(checkCustomFieldValue(dropdown, 2)).toBeNull();
    expect(checkCustomFieldValue(dropdown, 3)).toMatch(/option/);
    expect(checkCustomFieldValue(dropdown, null)).toBeNull();
    expect(checkCustomFieldValue({ name: 'r', type: CUSTOM_FIELD_TYPES.rag, params: {} }, 3)).toMatch(/red/);
  });
});
