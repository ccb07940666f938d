import { describe, expect, it } from 'vitest';
import { choicesOf, correctedValues, draftOf, inputTypeOf } from './correction';

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

  it('picks projects, folders and templates from lists, and clears an emptied one', () => {
    const create = { projectTemplateId: 'pt-project', parentProjectId: 'f-ops', projectId: 'local-1' };
    expect(Object.entries(create).map(([k, v]) => inputTypeOf(k, v))).toEqual([
      'template',
      'project',
      'project',
    ]);
    expect(inputTypeOf('parentProjectId', null)).toBe('project');
    expect(inputTypeOf('projectId', 5)).toBe('number');
    expect(correctedValues(create, { ...draftOf(create), parentProjectId: '', projectId: 'p-2' })).toEqual({
      parentProjectId: null,
      projectId: 'p-2',
    });
  });

  it('lists the choices with the current id named when the list lacks it, and None where it may be cleared', () => {
    const folders = [
      { value: 'f-ops', label: 'Ops' },
      { value: 'f-web', label: 'Ops / Web' },
    ];
    const unknown = (id: string) => `Unknown project ${id}`;
    expect(choicesOf(folders, 'f-web', { clearable: true, unknown })).toEqual([
      { value: '', label: 'None' },
      ...folders,
    ]);
    expect(choicesOf(folders, 'f-gone', { clearable: false, unknown })).toEqual([
      { value: 'f-gone', label: 'Unknown project f-gone' },
      ...folders,
    ]);
    expect(choicesOf(folders, 'f-ops', { clearable: false, unknown })).toEqual(folders);
    // A required field that holds nothing still shows that it holds nothing.
    expect(choicesOf(folders, '', { clearable: false, unknown })).toEqual([
      { value: '', label: 'None' },
      ...folders,
    ]);
  });
});
