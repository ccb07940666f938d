import { describe, expect, it } from 'vitest';
import { fieldLabel, inFieldWords } from './field-labels';

describe('inFieldWords', () => {
  it('reads a leading field and the field names inside a message as labels', () => {
    expect(inFieldWords('endDate: must not be before startDate')).toBe(
      'End date: must not be before start date',
    );
    expect(inFieldWords('must not be before startDate')).toBe('must not be before start date');
    expect(inFieldWords('assignedToUserId: not a member of the project')).toBe(
      'Assignee: not a member of the project',
    );
  });

  it('leaves plain words, unknown names and a prefix already in words alone', () => {
    expect(inFieldWords('name: is required')).toBe('Name: is required');
    expect(inFieldWords('a comment needs a message')).toBe('a comment needs a message');
    expect(inFieldWords('Service address: an http or https address')).toBe(
      'Service address: an http or https address',
    );
    expect(inFieldWords('the iPhone app sent fooBar')).toBe('the iPhone app sent fooBar');
  });

  it('reads the same labels as fieldLabel', () => {
    expect(inFieldWords('deadline: must be a date')).toBe(`${fieldLabel('deadline')}: must be a date`);
  });
});
