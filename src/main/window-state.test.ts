import { describe, expect, it } from 'vitest';
import { captureState, DEFAULT_WINDOW, restoreBounds } from './window-state';

const screen = { x: 0, y: 0, width: 1920, height: 1040 };

describe('window state', () => {
  it('uses the default size the first time', () => {
    expect(restoreBounds(null, [screen])).toEqual(DEFAULT_WINDOW);
  });

  it('keeps saved bounds that are on a display', () => {
    const saved = { x: 100, y: 50, width: 1000, height: 700, maximized: false };
    expect(restoreBounds(saved, [screen])).toEqual(saved);
    const second = { x: 1920, y: 0, width: 1280, height: 1024 };
    expect(restoreBounds({ ...saved, x: 2200 }, [screen, second])).toEqual({ ...saved, x: 2200 });
  });

  it('drops the position when its display is gone, and fits the size to the screen', () => {
    const saved = { x: 2500, y: 50, width: 2400, height: 700, maximized: true };
    expect(restoreBounds(saved, [screen])).toEqual({ width: 1920, height: 700, maximized: true });
  });

  it('captures whole pixels within the minimum size', () => {
    expect(captureState({ x: 1.6, y: 2.2, width: 100, height: 100 }, false)).toEqual({
      x: 2,
      y: 2,
      width: 400,
      height: 300,
      maximized: false,
    });
  });
});
