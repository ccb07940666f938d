import type { z } from 'zod';

/**
 * A schema built when it is first used, not when its module loads. Building every schema of the
 * contract and of the service's answers (a few hundred, each a chain of zod constructors) was
 * most of the time the core took to load its code, before its first answer to a window; a start
 * uses a few dozen of them.
 *
 * The value stands for the schema everywhere, its type included: the first read of any of its
 * properties (`parse`, `shape`, `.nullable()`, zod's own `_zod`) builds it once, and every read is
 * answered by the built schema. Wrappers made from it (`.optional()`, `.array()`) wrap the built
 * schema itself. `build` must not read the value it is building.
 */
export function lazySchema<T extends z.ZodType>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(schema(), key),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may report a property its (empty) target lacks only as configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
