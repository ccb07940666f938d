import { describe, expect, it } from 'vitest';
import { conflictNotice, describeChange, describeConflict, type ChangeLookups } from './describe-change';

const look: ChangeLookups = {
  taskName: (id) => ({ t1: 'Fix login', t2: 'Renamed here' })[id],
  statusName: (id) => ({ s2: 'Done' })[id],
  userName: (id) => ({ u1: 'Ada' })[id],
  tagName: () => undefined,
  projectName: (id) => ({ p1: 'Website' })[id],
  customField: () => undefined,
};

const entry = (kind: string, entityKey: string, payload: unknown) => ({
  kind,
  label: kind,
  entityKey,
  payload,
});

describe('describeChange', () => {
  it('names the task, the field and the new value', () => {
    expect(
      describeChange(entry('task.update', 'task:t1', { taskId: 't1', changes: { priority: 50 } }), look),
    ).toEqual(["Priority of 'Fix login' → Blocker"]);
    expect(
      describeChange(entry('task.setStatus', 'task:t1', { taskId: 't1', statusId: 's2' }), look),
    ).toEqual(["Status of 'Fix login' → Done"]);
  });

  it('says "Rename to" when the cache already shows the new title', () => {
    expect(
      describeChange(
        entry('task.update', 'task:t2', { taskId: 't2', changes: { title: 'Renamed here' } }),
        look,
      ),
    ).toEqual(["Rename to 'Renamed here'"]);
    // Rolled back (refused): the cache shows the old title, so both are named.
    expect(
      describeChange(
        entry('task.update', 'task:t1', { taskId: 't1', changes: { title: 'Fix sign-in' } }),
        look,
      ),
    ).toEqual(["Title of 'Fix login' → 'Fix sign-in'"]);
  });
});

describe('describeChange of a drop on a task', () => {
  it('says the files went to the task, not that they are a field of it', () => {
    const dropped = (kind: string, label: string) => ({ kind, label, entityKey: 'task:t1', payload: {} });
    expect(describeChange(dropped('task.commentWithFiles', 'Attached 1 file'), look)).toEqual([
      "Attached 1 file to 'Fix login'",
    ]);
    expect(describeChange(dropped('task.commentWithFiles', 'Comment with 2 files'), look)).toEqual([
      "Comment with 2 files on 'Fix login'",
    ]);
    expect(describeChange(dropped('task.replyWithFiles', 'Reply with 2 files'), look)).toEqual([
      "Reply with 2 files on 'Fix login'",
    ]);
  });
});

describe('describeChange of other items', () => {
  it('keeps the core’s label, its field names in words', () => {
    const edit = {
      kind: 'project.update',
      label: 'Edit project (endDate)',
      entityKey: 'project:p1',
      payload: {},
    };
    expect(describeChange(edit, look)).toEqual(['Edit project (end date)']);
    const contact = {
      kind: 'crm.updateContact',
      label: 'Edit contact "Ada Lind" (phone, lastName)',
      entityKey: 'crmContact:c1',
      payload: {},
    };
    // The core's label names the record: two contacts' edits are told apart.
    expect(describeChange(contact, look)).toEqual(['Edit contact "Ada Lind" (phone, last name)']);
  });
});

describe('describeConflict', () => {
  it('calls a task name its title and shows both values in words', () => {
    expect(
      describeConflict(
        { entity: 'task', entityId: 't1', field: 'name', localValue: 'Mine', remoteValue: 'Theirs' },
        look,
      ),
    ).toEqual({ line: "Title of 'Fix login'", mine: "'Mine'", theirs: "'Theirs'" });
    expect(
      describeConflict(
        { entity: 'task', entityId: 't1', field: 'assignedToUserId', localValue: 'u1', remoteValue: null },
        look,
      ),
    ).toEqual({ line: "Assignee of 'Fix login'", mine: 'Ada', theirs: 'none' });
  });

  it('names projects, and other items by their kind', () => {
    expect(
      describeConflict(
        { entity: 'project', entityId: 'p1', field: 'color', localValue: 3, remoteValue: 4 },
        look,
      ).line,
    ).toBe("Color of 'Website'");
    expect(
      describeConflict(
        { entity: 'crmContact', entityId: 'c1', field: 'email', localValue: 'a', remoteValue: 'b' },
        look,
      ).line,
    ).toBe('Email of a contact');
  });
});

describe('conflictNotice', () => {
  const priority = { entity: 'task', entityId: 't1', field: 'priority', localValue: 8, remoteValue: 3 };

  it('says whose change was overwritten and what the policy did', () => {
    expect(conflictNotice(priority, look, { who: 'Ada', asked: false })).toBe(
      "Priority of 'Fix login' was also changed by Ada: kept yours",
    );
    expect(conflictNotice({ ...priority, itemName: 'Ship it' }, look, { asked: true })).toBe(
      "Priority of 'Ship it' was also changed by someone else: waiting for your decision",
    );
  });

  it('asks about a delete of an item changed since it was read', () => {
    const whole = {
      entity: 'task',
      entityId: 'gone',
      field: '*',
      localValue: null,
      remoteValue: { priority: 3, name: 'Release notes' },
    };
    expect(conflictNotice(whole, look, { who: 'Ada', when: '5 minutes ago', asked: true })).toBe(
      "Ada changed this task 'Release notes' 5 minutes ago: delete anyway?",
    );
    expect(describeConflict(whole, look)).toEqual({
      line: "'Release notes' was changed on the service since you deleted it",
      mine: 'Deleted',
      theirs: "Priority 3, Title 'Release notes'",
    });
  });
});
