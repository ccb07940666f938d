import { describe, expect, it, vi } from 'vitest';
import { RejectedError } from '../api/errors';
import { checkedKeep, confirmRemoval } from './removal';

describe('rule 9: a checked scope replace', () => {
  const cached = Array.from({ length: 40 }, (_, i) => `d${i}`);
  const listed = (ids: readonly string[]) => ids.map((id) => ({ id }));

  it('keeps what a mass removal would take when the second answer still has it', async () => {
    const refetch = vi.fn(async () => new Set(cached.slice(0, 39)));
    const keep = await checkedKeep(
      cached,
      [],
      (id) => id === 'local-1',
      refetch,
      () => {},
      'documents',
    );
    expect(refetch).toHaveBeenCalledOnce();
    expect(cached.filter(keep)).toHaveLength(39);
    expect(keep('d39')).toBe(false);
    expect(keep('local-1')).toBe(true);
  });

  it('asks nothing again for a small removal, and protects only what `keep` does', async () => {
    const refetch = vi.fn(async () => new Set<string>());
    const keep = await checkedKeep(
      cached,
      listed(cached.slice(3)),
      () => false,
      refetch,
      () => {},
      'x',
    );
    expect(refetch).not.toHaveBeenCalled();
    expect(['d0', 'd1', 'd2'].filter(keep)).toEqual([]);
  });

  it('removes the items when the scope itself is gone by the second fetch (404)', async () => {
    const gone = async (): Promise<ReadonlySet<string>> => {
      throw new RejectedError('GET', '/project/p1/documents', 404, 'no such project');
    };
    expect(await confirmRemoval(40, cached, gone, () => {}, 'p1')).toEqual(cached);
    const failing = async (): Promise<ReadonlySet<string>> => {
      throw new RejectedError('GET', '/project/p1/documents', 403, 'not allowed');
    };
    await expect(confirmRemoval(40, cached, failing, () => {}, 'p1')).rejects.toThrow();
  });
});
