import { describe, expect, it } from 'vitest';
import { createGoToReader, goToKeysOf, GO_TO_KEYS } from './go-to-keys';

describe('go-to key sequences', () => {
  it('G then a letter runs the letter’s command', () => {
    const reader = createGoToReader(1000);
    expect(reader.press('g', 0)).toEqual({ kind: 'start' });
    expect(reader.press('c', 400)).toEqual({ kind: 'go', commandId: 'go-calendar' });
  });

  it('maps I, M, C, T and U to the inbox, My Work, the calendar, My Time and updates', () => {
    expect(GO_TO_KEYS).toEqual({
      i: 'go-action',
      m: 'go-assigned',
      c: 'go-calendar',
      t: 'go-mytime',
      u: 'go-updates',
    });
  });

  it('reads capitals (Caps Lock) as the same keys', () => {
    const reader = createGoToReader(1000);
    expect(reader.press('G', 0)).toEqual({ kind: 'start' });
    expect(reader.press('M', 10)).toEqual({ kind: 'go', commandId: 'go-assigned' });
  });

  it('a letter after the timeout is an ordinary key', () => {
    const reader = createGoToReader(1000);
    reader.press('g', 0);
    expect(reader.press('c', 1001)).toEqual({ kind: 'none' });
  });

  it('a letter without G first is an ordinary key', () => {
    const reader = createGoToReader(1000);
    expect(reader.press('c', 0)).toEqual({ kind: 'none' });
  });

  it('a key that is not a go-to letter ends the sequence', () => {
    const reader = createGoToReader(1000);
    reader.press('g', 0);
    expect(reader.press('x', 10)).toEqual({ kind: 'none' });
    expect(reader.press('c', 20)).toEqual({ kind: 'none' });
  });

  it('G twice starts again from the second G', () => {
    const reader = createGoToReader(1000);
    reader.press('g', 0);
    expect(reader.press('g', 900)).toEqual({ kind: 'start' });
    expect(reader.press('u', 1800)).toEqual({ kind: 'go', commandId: 'go-updates' });
  });

  it('reset forgets a started sequence', () => {
    const reader = createGoToReader(1000);
    reader.press('g', 0);
    reader.reset();
    expect(reader.press('i', 10)).toEqual({ kind: 'none' });
  });

  it('names the keys for the shortcuts help', () => {
    expect(goToKeysOf('go-calendar')).toBe('G then C');
    expect(goToKeysOf('go-settings')).toBeUndefined();
  });
});
