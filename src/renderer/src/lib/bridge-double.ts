// For unit tests of the renderer's state modules, which run in node: what `lib/bridge` exports,
// without the window its app bridge needs (each test hands its state a bridge of its own), with
// the error class the state modules tell answers by. A test mocks the module with it:
// `vi.mock('../lib/bridge', () => import('../lib/bridge-double'))`.
export { BridgeError } from './bridge-error';

export const bridge = {};

/**
 * Svelte's `$state` runes stood in for by plain values (no component draws from the state in a
 * unit test). Call it before the state module is imported (`await import(...)`).
 */
export function plainRunes(): void {
  const plain = <T>(value: T): T => value;
  (globalThis as Record<string, unknown>)['$state'] = Object.assign(plain, { raw: plain });
}
