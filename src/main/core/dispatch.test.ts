import { describe, expect, it, vi } from 'vitest';
import { createDispatch } from './dispatch';
import { HandlerError } from './errors';
import { mergeHandlerMaps } from './handlers/registry';
import { appHandlers } from './handlers/app';

describe('dispatch', () => {
  const deps = { version: '1.2.3', transport: 'web' as const };

  it('answers a declared channel with its handler value', async () => {
    const dispatch = createDispatch(mergeHandlerMaps([appHandlers(deps)]));
    const result = await dispatch('app.info', {});
    expect(result).toEqual({
      ok: true,
      value: { name: 'Workdesk', version: '1.2.3', coreRuntime: `Node ${process.version}`, transport: 'web' },
    });
  });

  it('refuses an unknown channel and calls nothing', async () => {
    const handler = vi.fn();
    const dispatch = createDispatch({ 'app.info': handler });
    const result = await dispatch('fs.readFile', {});
    expect(result).toMatchObject({ ok: false, error: { type: 'unknown-channel' } });
    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses a malformed argument naming the field, and calls nothing', async () => {
    const handler = vi.fn();
    const dispatch = createDispatch({ 'app.info': handler });
    const result = await dispatch('app.info', { surprise: 1 });
    expect(result).toMatchObject({ ok: false, error: { type: 'invalid-argument' } });
    expect(JSON.stringify(result)).toContain('surprise');
    expect(await dispatch('app.info', 'text')).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument' },
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('turns a handler throw into an error result', async () => {
    const dispatch = createDispatch({
      'app.info': () => {
        throw new HandlerError('not-found', 'Task 7 is not in the cache', 'taskId');
      },
    });
    expect(await dispatch('app.info', {})).toEqual({
      ok: false,
      error: { type: 'not-found', message: 'Task 7 is not in the cache', field: 'taskId' },
    });
  });
});

describe('mergeHandlerMaps', () => {
  it('refuses two handlers for one channel', () => {
    const a = appHandlers({ version: '1', transport: 'web' });
    expect(() => mergeHandlerMaps([a, a])).toThrow(/Two handlers registered for channel "app.info"/);
  });

  it('refuses a handler for an undeclared channel', () => {
    expect(() => mergeHandlerMaps([{ 'nope.verb': () => 1 } as never])).toThrow(
      /undeclared channel "nope.verb"/,
    );
  });
});
