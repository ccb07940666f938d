import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Spool, SpoolRefusal } from './spool';

let root: string;
let spool: Spool;
let n = 0;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'spool-test-'));
  spool = new Spool({
    dir: join(root, 'spool'),
    maxFileBytes: 100,
    newId: () => `id${++n}`,
    clock: () => 42,
  });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('Spool', () => {
  it('copies a file at once with its name, size and inferred mime; the original may go', async () => {
    const path = join(root, 'photo.jpg');
    writeFileSync(path, 'jpeg bytes');
    const meta = await spool.addFromPath(path);
    rmSync(path);
    expect(meta).toEqual({
      id: meta.id,
      name: 'photo.jpg',
      size: 10,
      mime: 'image/jpeg',
      createdAt: 42,
      fileId: null,
    });
    expect(await spool.get(meta.id)).toEqual(meta);
    await spool.setFileId(meta.id, 'f-1');
    expect((await spool.get(meta.id))?.fileId).toBe('f-1');
  });

  it('refuses folders, missing and oversized files one by one, keeping the rest of the drop', async () => {
    mkdirSync(join(root, 'folder'));
    writeFileSync(join(root, 'ok.txt'), 'fine');
    writeFileSync(join(root, 'big.bin'), Buffer.alloc(101));
    const { staged, refused } = await spool.addPaths([
      join(root, 'folder'),
      join(root, 'gone.txt'),
      join(root, 'ok.txt'),
      join(root, 'big.bin'),
    ]);
    expect(staged.map((s) => s.name)).toEqual(['ok.txt']);
    expect(refused.map((r) => r.name)).toEqual(['folder', 'gone.txt', 'big.bin']);
    expect(refused[2]!.reason).toBe('is 101 bytes, larger than the 100 bytes limit per file');
    // Nothing of the refused files is left in the spool.
    expect(readdirSync(spool.dir).sort()).toEqual([staged[0]!.id, `${staged[0]!.id}.json`].sort());
  });

  it('receives streamed chunks in order and refuses a gap, an overflow or a short file', async () => {
    const id = await spool.beginStream('a.txt', 6);
    expect(await spool.appendChunk(id, 0, Buffer.from('abc'))).toBe(3);
    await expect(spool.appendChunk(id, 0, Buffer.from('abc'))).rejects.toBeInstanceOf(SpoolRefusal);
    expect(await spool.appendChunk(id, 3, Buffer.from('def'))).toBe(6);
    const meta = await spool.endStream(id);
    expect(readFileSync(join(spool.dir, meta.id), 'utf8')).toBe('abcdef');

    const short = await spool.beginStream('b.txt', 5);
    await spool.appendChunk(short, 0, Buffer.from('ab'));
    await expect(spool.endStream(short)).rejects.toThrow(/2 of 5 bytes arrived/);
    expect(await spool.get(short)).toBeNull();

    const over = await spool.beginStream('c.txt', 2);
    await expect(spool.appendChunk(over, 0, Buffer.from('abc'))).rejects.toThrow(/more bytes than its size/);
    await expect(spool.beginStream('d.txt', 101)).rejects.toThrow(/larger than the 100 bytes limit/);
  });

  it('sweeps every file but those kept', async () => {
    writeFileSync(join(root, 'x'), 'x');
    const a = await spool.addFromPath(join(root, 'x'));
    const b = await spool.addFromPath(join(root, 'x'));
    expect(await spool.sweep(new Set([a.id]))).toBe(1);
    expect(await spool.get(a.id)).not.toBeNull();
    expect(await spool.get(b.id)).toBeNull();
    expect(() => spool.read('../escape', () => {})).toThrow(/Not a spool id/);
  });

  it('knows, without I/O, the records it read or wrote; a sweep at start-up reads those it keeps', async () => {
    writeFileSync(join(root, 'x'), 'x');
    const kept = await spool.addFromPath(join(root, 'x'));
    const dropped = await spool.addFromPath(join(root, 'x'));
    await spool.setFileId(kept.id, 'f-kept');
    expect(spool.known(kept.id)?.fileId).toBe('f-kept');
    // Another process (the app restarted) knows nothing until it reads.
    const restarted = new Spool({ dir: spool.dir, maxFileBytes: 100 });
    expect(restarted.known(kept.id)).toBeUndefined();
    await restarted.sweep(new Set([kept.id, 'spool-never-there']));
    expect(restarted.known(kept.id)?.fileId).toBe('f-kept');
    expect(restarted.known('spool-never-there')).toBeNull();
    expect(restarted.known(dropped.id)).toBeNull();
    await restarted.remove(kept.id);
    expect(restarted.known(kept.id)).toBeNull();
  });
});
