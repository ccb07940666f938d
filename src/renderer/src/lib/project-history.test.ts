import { describe, expect, it } from 'vitest';
import { describeHistoryEvent, historyLine, historyValue, type HistoryNames } from './project-history';

describe('project history wording', () => {
  it('reads the known type and turns unknown ones into words', () => {
    expect(describeHistoryEvent('STATUS_COMMENTS_UPDATED')).toBe('updated the status comments');
    expect(describeHistoryEvent('PRIORITY_CHANGED')).toBe('changed the priority');
    expect(describeHistoryEvent('SOMETHING_ODD')).toBe('something odd');
  });
  it('shows values as text', () => {
    expect(historyValue(null)).toBe('');
    expect(historyValue('On track')).toBe('On track');
    expect(historyValue(5)).toBe('5');
  });

  const names: HistoryNames = {
    user: (id) => ({ 'u-ada': 'Ada Lindqvist', 'u-bob': 'Bob Okafor' })[id] ?? id,
    project: (id) => ({ 'p-1': 'Website relaunch' })[id] ?? id,
    status: (id) => ({ 'st-hold': 'On Hold' })[id],
  };
  const line = (eventType: string, newValue: unknown, oldValue: unknown = null) =>
    historyLine({ eventType, params: { newValue, oldValue } }, names);

  it('says the creation was under the first name, so it reads as the same project', () => {
    expect(line('PROJECT_CREATED', 'Project 5')).toEqual({
      action: 'created the project as ‘Project 5’',
      oldValue: '',
      newValue: '',
    });
    expect(line('PROJECT_CREATED', null).action).toBe('created the project');
  });

  it('names the users, projects and statuses the service records by id', () => {
    expect(line('OWNER_UPDATED', 'u-bob', 'u-ada')).toEqual({
      action: 'changed the owner',
      oldValue: 'Ada Lindqvist',
      newValue: 'Bob Okafor',
    });
    expect(line('PARENT_UPDATED', 'p-1').newValue).toBe('Website relaunch');
    expect(line('STATUS_UPDATED', 'st-hold').newValue).toBe('On Hold');
    expect(line('STATUS_UPDATED', 'st-unknown').newValue).toBe('st-unknown');
    expect(line('SYSTEM_STATUS_UPDATED', 5, 2)).toMatchObject({ oldValue: 'Open', newValue: 'Archived' });
  });

  it('reads codes and amounts as the app shows them elsewhere', () => {
    expect(line('PRIORITY_UPDATED', 50, 3)).toMatchObject({ oldValue: '3', newValue: 'Blocker' });
    expect(line('ESTIMATE_UPDATED', 150).newValue).toBe('2 h 30 min');
    expect(line('PROGRESS_UPDATED', 40).newValue).toBe('40%');
    expect(line('STATUS_COMMENTS_UPDATED', 'On track', 'Late')).toMatchObject({
      oldValue: 'Late',
      newValue: 'On track',
    });
  });
});
