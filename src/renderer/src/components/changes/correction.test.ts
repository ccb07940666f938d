import { describe, expect, it } from 'vitest';
import { correctedValues, draftOf, inputTypeOf } from './correction';

describe('correcting a queued change in a form', () => {
  const fields = {
    name: 'Launch',
    projectOwnerUserId: 'u-nobody',
    startDate: '2026-11-23',
    endDate: '2026-11-20',
    estimate: 30,
    isPrivate: false,
    deadline: null,
    message: 'Kick-off on Monday',
  };

  it('shows each field as text in the input its type needs', () => {
    expect(draftOf(fields)).toEqual({
      name: 'Launch',
      projectOwnerUserId: 'u-nobody',
      startDate: '2026-11-23',
      endDate: '2026-11-20',
      estimate: '30',
      isPrivate: 'false',
      deadline: '',
      message: 'Kick-off on Monday',
    });
    expect(Object.entries(fields).map(([k, v]) => inputTypeOf(k, v))).toEqual([
      'text',
      'user',
      'date',
      'date',
      'number',
      'checkbox',
      'date',
      'long',
    ]);
  });

  it('gives back only the changed fields, in their types', () => {
    const draft = { ...draftOf(fields), endDate: '2026-11-30', estimate: '45', isPrivate: 'true' };
    expect(correctedValues(fields, draft)).toEqual({ endDate: '2026-11-30', estimate: 45, isPrivate: true });
    expect(correctedValues(fields, draftOf(fields))).toEqual({});
  });

  it('clears an emptied date or number, and keeps emptied text for the core to judge', () => {
    expect(
      correctedValues(fields, {
        ...draftOf(fields),
        startDate: '',
        estimate: ' ',
        name: '',
        projectOwnerUserId: '',
        message: '',
      }),
    ).toEqual({
      projectOwnerUserId: null,
      startDate: null,
      estimate: null,
      name: '',
      message: '',
    });
  });
});
