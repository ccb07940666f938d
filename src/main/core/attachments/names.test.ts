import { describe, expect, it } from 'vitest';
import { attachedNote, chunks, mimeFor, shortenName } from './names';

describe('shortenName', () => {
  it('keeps names within the limit as they are, without path parts', () => {
    expect(shortenName('report.pdf')).toBe('report.pdf');
    expect(shortenName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(shortenName('/home/me/notes.txt')).toBe('notes.txt');
    expect(shortenName('  ')).toBe('file');
  });

  it('shortens a long name to 255 characters keeping the extension', () => {
    const name = shortenName(`${'a'.repeat(400)}.tar.gz`);
    expect([...name]).toHaveLength(255);
    expect(name.endsWith('a….gz')).toBe(true);
  });

  it('counts characters, not UTF-16 units, and drops an absurd extension', () => {
    const emoji = shortenName('😀'.repeat(300));
    expect([...emoji]).toHaveLength(255);
    const noExt = shortenName(`x.${'y'.repeat(300)}`, 20);
    expect([...noExt]).toHaveLength(20);
    expect(noExt.endsWith('…')).toBe(true);
  });
});

describe('mimeFor', () => {
  it('uses the given type, else infers it from the name', () => {
    expect(mimeFor('a.png', 'image/webp')).toBe('image/webp');
    expect(mimeFor('a.png', '')).toBe('image/png');
    expect(mimeFor('a.unknownext')).toBe('application/octet-stream');
  });
});

describe('notes and chunks', () => {
  it('says how many files and splits by 20', () => {
    expect(attachedNote(1)).toBe('Attached 1 file');
    expect(attachedNote(3)).toBe('Attached 3 files');
    expect(chunks(Array.from({ length: 45 }, (_, i) => i)).map((c) => c.length)).toEqual([20, 20, 5]);
  });
});
