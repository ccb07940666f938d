import { describe, expect, it } from 'vitest';
import { ProjectCreatePayload } from './kinds/projects';
import { correctedPayload, correctionError, editableFields } from './correction';

const create = {
  type: 'project',
  tempId: 'local-p',
  input: { name: 'Launch', projectTemplateId: 'tpl', startDate: '2026-11-23', endDate: '2026-11-20' },
};

describe('editableFields', () => {
  it('offers an update’s changes, a create’s input and a message’s text, plain values only', () => {
    expect(
      editableFields({ taskId: 't1', changes: { title: 'A', endDate: null, status: { id: 's' } } }),
    ).toEqual({ title: 'A', endDate: null });
    expect(editableFields(create)).toEqual(create.input);
    expect(
      editableFields({ tempId: 'local-t', draftId: 'local-d', input: { title: 'T', crmContactIds: ['c1'] } }),
    ).toEqual({ title: 'T' });
    expect(editableFields({ taskId: 't1', draftId: 'local-d', message: 'hi' })).toEqual({ message: 'hi' });
    expect(editableFields({ taskId: 't1', tagId: 'g' })).toBeNull();
    expect(editableFields(null)).toBeNull();
  });
});

describe('correctedPayload', () => {
  it('changes only the corrected fields of the part, keeping the local id', () => {
    expect(correctedPayload(create, { endDate: '2026-11-30' })).toEqual({
      part: 'input',
      payload: { ...create, input: { ...create.input, endDate: '2026-11-30' } },
    });
    expect(
      correctedPayload({ taskId: 't1', draftId: 'local-d', message: 'hi' }, { message: 'hello' }),
    ).toEqual({
      part: null,
      payload: { taskId: 't1', draftId: 'local-d', message: 'hello' },
    });
  });

  it('refuses a field the change does not offer, naming it', () => {
    expect(() => correctedPayload(create, { tempId: 'local-other' })).toThrow(
      expect.objectContaining({ type: 'invalid-argument', field: 'tempId' }),
    );
    expect(() => correctedPayload({ taskId: 't1', tagId: 'g' }, { tagId: 'h' })).toThrow(
      expect.objectContaining({ field: 'tagId' }),
    );
  });

  it('names a refused correction by its field, as the create schema does', () => {
    const { payload, part } = correctedPayload(create, { name: 'Launch 2' });
    const parsed = ProjectCreatePayload.safeParse(payload);
    expect(parsed.success).toBe(false);
    const error = correctionError(parsed.error!, part);
    expect(error).toMatchObject({ type: 'invalid-argument', field: 'endDate' });
    expect(error.message).toBe('endDate: must not be before startDate');
  });
});
