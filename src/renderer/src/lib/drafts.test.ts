import { describe, expect, it } from 'vitest';
import { Drafts } from './drafts';

describe('Drafts', () => {
  it('keeps a text per key until it is emptied', () => {
    const drafts = new Drafts();
    drafts.set('t1', 'A thought');
    drafts.set('t2', 'Another');
    expect(drafts.get('t1')).toBe('A thought');
    expect(drafts.get('t2')).toBe('Another');
    drafts.set('t1', '   ');
    expect(drafts.get('t1')).toBe('');
    expect(drafts.get('t3')).toBe('');
  });
});
