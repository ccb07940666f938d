import { describe, expect, it, vi } from 'vitest';
import { createQuickCapture } from './quick-capture';

function shortcuts(free = true) {
  const registered = new Map<string, () => void>();
  return {
    registered,
    globalShortcut: {
      register: vi.fn((accelerator: string, callback: () => void) => {
        if (!free) return false;
        registered.set(accelerator, callback);
        return true;
      }),
      unregister: vi.fn((accelerator: string) => void registered.delete(accelerator)),
    },
  };
}

describe('the quick-capture shortcut', () => {
  it('is registered only when the setting turns it on, and opens the capture', () => {
    const { registered, globalShortcut } = shortcuts();
    const capture = vi.fn();
    const quick = createQuickCapture({
      globalShortcut,
      accelerator: 'CommandOrControl+Alt+Space',
      capture,
      log: vi.fn(),
    });
    // Off by default: nothing is taken from other applications.
    expect(quick.apply(false)).toBe(false);
    expect(globalShortcut.register).not.toHaveBeenCalled();

    expect(quick.apply(true)).toBe(true);
    expect(quick.apply(true)).toBe(true);
    expect(globalShortcut.register).toHaveBeenCalledOnce();
    registered.get('CommandOrControl+Alt+Space')?.();
    expect(capture).toHaveBeenCalledOnce();

    quick.apply(false);
    expect(globalShortcut.unregister).toHaveBeenCalledExactlyOnceWith('CommandOrControl+Alt+Space');
    expect(registered.size).toBe(0);
  });

  it('says so when another application holds the shortcut', () => {
    const { globalShortcut } = shortcuts(false);
    const log = vi.fn();
    const quick = createQuickCapture({
      globalShortcut,
      accelerator: 'CommandOrControl+Alt+Space',
      capture: vi.fn(),
      log,
    });
    expect(quick.apply(true)).toBe(false);
    expect(log).toHaveBeenCalledWith(
      'quick capture: CommandOrControl+Alt+Space is taken by another application',
    );
    quick.dispose();
    expect(globalShortcut.unregister).not.toHaveBeenCalled();
  });

  it('lets the shortcut go when disposed (quitting)', () => {
    const { registered, globalShortcut } = shortcuts();
    const quick = createQuickCapture({ globalShortcut, accelerator: 'F13', capture: vi.fn(), log: vi.fn() });
    quick.apply(true);
    quick.dispose();
    expect(registered.size).toBe(0);
  });
});
