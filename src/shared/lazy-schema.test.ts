import { describe, expect, it, vi } from 'vitest';
import type * as zodModule from 'zod';
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

describe('lazySchema', () => {
  it('builds the schema at its first use, once, and answers as the built schema', () => {
    const build = vi.fn(() => z.object({ id: z.string(), count: z.number().int() }).strict());
    const Row = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(Row.parse({ id: 'a', count: 2 })).toEqual({ id: 'a', count: 2 });
    const failed = Row.safeParse({ id: 'a', count: 1.5, extra: true });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues.map((issue) => issue.path.join('.') || issue.code).sort()).toEqual([
      'count',
      'unrecognized_keys',
    ]);
    expect(Object.keys(Row.shape)).toEqual(['id', 'count']);
    expect(Row instanceof z.ZodObject).toBe(true);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('stands for the schema inside other schemas, and its wrappers wrap the built schema', () => {
    const Id = lazySchema(() => z.string().min(1));
    const Ref = lazySchema(() => z.object({ id: Id, parent: Id.nullable() }));
    const List = lazySchema(() => z.array(Ref).max(2));
    expect(List.parse([{ id: 'a', parent: null }])).toEqual([{ id: 'a', parent: null }]);
    expect(List.safeParse([{ id: '', parent: 'b' }]).error?.issues[0]?.path).toEqual([0, 'id']);
    expect(List.safeParse([1, 2, 3]).success).toBe(false);
    expect(Ref.extend({ name: z.string() }).parse({ id: 'a', parent: 'b', name: 'n' })).toEqual({
      id: 'a',
      parent: 'b',
      name: 'n',
    });
  });
});

describe('the IPC contract and the service schemas', () => {
  it('build no schema when their modules load (each is built at its first use)', async () => {
    vi.resetModules();
    let built = 0;
    vi.doMock('zod', async (importOriginal) => {
      const zod = await importOriginal<typeof zodModule>();
      // Every schema starts from one of `z`'s functions: count the calls while the modules load.
      const counted = new Proxy(zod.z, {
        get: (target, key) => {
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' && /^[a-z]/.test(String(key))
            ? (...args: unknown[]) => {
                built++;
                return (value as (...a: unknown[]) => unknown)(...args);
              }
            : value;
        },
      });
      return { ...zod, z: counted };
    });
    try {
      const { CHANNEL_DOMAINS } = await import('./ipc/contract');
      await import('./api/tasks');
      await import('./api/projects');
      expect(built).toBe(0);
      // At first use: the channel's input schema is built then, and checks as before.
      const spec = CHANNEL_DOMAINS.find((domain) => 'inbox.list' in domain.channels)!.channels as Record<
        string,
        { input: z.ZodType }
      >;
      expect(spec['inbox.list']!.input.safeParse({ first: 0 }).success).toBe(false);
      expect(built).toBeGreaterThan(0);
    } finally {
      vi.doUnmock('zod');
      vi.resetModules();
    }
  });
});
