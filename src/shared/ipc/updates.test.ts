import { describe, expect, it } from 'vitest';
import { noticeKindOf, type UpdateItem } from './updates';

const item = (kind: UpdateItem['kind']): UpdateItem => ({
  id: 1,
  kind,
  actor: 'bob',
  at: '2026-03-02T10:00:00',
  detail: null,
  text: null,
  read: false,
});

describe('the notice an update raises', () => {
  it('tells of comments, status changes and assignments, once each', () => {
    expect(noticeKindOf(item('comment'), { relation: 'assigned' })).toBe('comment');
    expect(noticeKindOf(item('reply'), { relation: 'created' })).toBe('comment');
    expect(noticeKindOf(item('status'), { relation: 'commented' })).toBe('statusChange');
    expect(noticeKindOf(item('assignee'), { relation: 'assigned' })).toBe('assigned');
    expect(noticeKindOf(item('new'), { relation: 'assigned' })).toBe('assigned');
    // A new task of someone else's, or one only created by me: nothing to tell.
    expect(noticeKindOf(item('new'), { relation: 'created' })).toBeUndefined();
  });

  it('leaves a hand-over to the action-required notice, which already says it', () => {
    expect(noticeKindOf(item('reply'), { relation: 'actionRequired' })).toBeUndefined();
    expect(noticeKindOf(item('new'), { relation: 'actionRequired' })).toBeUndefined();
    expect(noticeKindOf(item('comment'), { relation: 'actionRequired' })).toBe('comment');
  });
});
