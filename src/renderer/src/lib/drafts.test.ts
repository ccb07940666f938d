import { describe, expect, it } from 'vitest';
import { Drafts } from './drafts';

describe('Drafts', () => {
  it('keeps a text per key until it is emptied', () => {
    const drafts = new Drafts<string>();
    drafts.set('t1', { text: 'A thought', files: [] });
    drafts.set('t2', { text: 'Another', files: [] });
    expect(drafts.get('t1').text).toBe('A thought');
    expect(drafts.get('t2').text).toBe('Another');
    drafts.set('t1', { text: '   ', files: [] });
    expect(drafts.get('t1')).toEqual({ text: '', files: [] });
    expect(drafts.get('t3')).toEqual({ text: '', files: [] });
  });

  it('keeps staged files with or without a text, and adds files staged after the box went away', () => {
    const drafts = new Drafts<string>();
    drafts.set('t1', { text: '', files: ['f1'] });
    expect(drafts.get('t1')).toEqual({ text: '', files: ['f1'] });
    drafts.addFiles('t1', ['f2']);
    drafts.addFiles('t2', ['f3']);
    expect(drafts.get('t1').files).toEqual(['f1', 'f2']);
    expect(drafts.get('t2')).toEqual({ text: '', files: ['f3'] });
    drafts.set('t1', { text: '', files: [] });
    expect(drafts.get('t1').files).toEqual([]);
  });

  it('holds its own copy of the files, not the caller’s array', () => {
    const drafts = new Drafts<string>();
    const files = ['f1'];
    drafts.set('t1', { text: 'x', files });
    files.push('f2');
    expect(drafts.get('t1').files).toEqual(['f1']);
  });
});
