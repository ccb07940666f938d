import { describe, expect, it } from 'vitest';
import { messagePreview } from './message-preview';

describe('messagePreview', () => {
  it.each([
    ['', ''],
    ['   \n\n  ', ''],
    ['Any news on this?', 'Any news on this?'],
    ['Please **sign off** the release', 'Please sign off the release'],
    ['*one* _two_ __three__ ***four*** ~~five~~', 'one two three four five'],
    // Markers as markdown-it reads them: the inner star is text, not a marker.
    ['**a*b**', 'a*b'],
    ['**bold *it***', 'bold it'],
    ['2 * 3 * 4 and a*b', '2 * 3 * 4 and a*b'],
    ['snake_case_name and _it_', 'snake_case_name and it'],
    ['\\*not emphasis\\*', '*not emphasis*'],
    ['run `npm **test**` now', 'run npm **test** now'],
    ['``a ` b``', 'a ` b'],
    ['see [the spec](https://example.com/spec "Spec") now', 'see the spec now'],
    ['[x](javascript:alert(1))', 'x'],
    ['![diagram](https://example.com/d.png)', 'diagram'],
    ['[docs][1]', 'docs'],
    ['<https://example.com/a_b_>', 'https://example.com/a_b_'],
    ['at https://example.com/_x_/y', 'at https://example.com/_x_/y'],
    ['<img src=x onerror="alert(1)"> <b>bold</b>', '<img src=x onerror="alert(1)"> <b>bold</b>'],
    ['# Heading\nText', 'Heading Text'],
    ['Release:\n- notes\n* [ ] checks\n1. first\n2) second', 'Release: notes checks first second'],
    ['> quoted\n> > deeper\nreply', 'quoted deeper reply'],
    ['above\n\n---\n\nbelow', 'above below'],
    ['Look:\n```ts\nconst a = **b**;\n  if (a) go();\n```\nok?', 'Look: const a = **b**; if (a) go(); ok?'],
    ['tabs\tand\r\nnew  lines', 'tabs and new lines'],
    ['```npm test``` fails on CI', 'npm test fails on CI'],
    ['```x``` done\n**Thanks**, see [log](https://x)', 'x done Thanks, see log'],
    ['R&amp;D budget &gt; 5k &#8364; &#x2713; `&amp;`', 'R&D budget > 5k € ✓ &amp;'],
    ['&#57344;a&#0;', 'a\uFFFD'],
    ['See [the [draft] spec](https://x.y/s)', 'See the [draft] spec'],
    ['| Env | Result |\n|---|:---:|\n| CI | fails |\nafter', 'Env Result CI fails after'],
    ['a | b\n--- | ---\nc | d', 'a b c d'],
    ['no table | here\nplain', 'no table | here plain'],
  ])('%j reads %j', (message, preview) => {
    expect(messagePreview(message)).toBe(preview);
  });

  it('reads only the head of a very long message, and gives one bounded line', () => {
    const message = `**Start** ${'word '.repeat(2000)}`;
    expect(message.length).toBeGreaterThan(10_000);
    const preview = messagePreview(message);
    expect(preview.startsWith('Start word word')).toBe(true);
    expect(preview.length).toBeLessThanOrEqual(500);
    expect(preview).not.toMatch(/[\n*]/);
  });

  it('reads a message of many brackets in one bounded pass', () => {
    // Each `[` would start a link's search to the end of the message without the bounds.
    const preview = messagePreview('['.repeat(2000));
    expect(preview).toBe('['.repeat(500));
  });

  it('never lets the private signs it works with through', () => {
    expect(messagePreview('a\uE0000\uE001 `b`')).toBe('a0 b');
  });
});
