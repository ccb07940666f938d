import { describe, expect, it } from 'vitest';
import { describeHistoryEvent, historyValue } from './project-history';

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
});
