import { describe, expect, it } from 'vitest';
import { csvFileName, toCsv } from './csv';

describe('CSV', () => {
  it('quotes what needs it, ends lines with CRLF and starts with a byte-order mark', () => {
    expect(
      toCsv(
        ['Name', 'Note'],
        [
          ['Plan, then ship', 'say "hi"\nbye'],
          ['plain', ''],
        ],
      ),
    ).toBe('\uFEFFName,Note\r\n"Plan, then ship","say ""hi""\nbye"\r\nplain,\r\n');
  });

  it('keeps a cell that looks like a formula from running as one', () => {
    expect(toCsv(['A'], [['=HYPERLINK("x")'], ['+1'], ['-2'], ['@SUM(A1)'], ['2-3']])).toBe(
      '\uFEFFA\r\n"\'=HYPERLINK(""x"")"\r\n\'+1\r\n\'-2\r\n\'@SUM(A1)\r\n2-3\r\n',
    );
  });

  it('names the file after the list and the day', () => {
    expect(csvFileName('Support desk 1', '2026-11-26')).toBe('Support desk 1 2026-11-26.csv');
    expect(csvFileName('My/Work: "Action"', '2026-11-26')).toBe('My Work Action 2026-11-26.csv');
    expect(csvFileName('///', '2026-11-26')).toBe('tasks 2026-11-26.csv');
  });
});
