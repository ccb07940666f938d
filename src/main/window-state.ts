// Remembered window bounds. Pure functions over plain rectangles, so they need no electron.
import type { WindowState } from '../shared/ipc/settings';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_WINDOW: WindowState = { width: 1280, height: 800, maximized: false };

/**
 * The bounds to open the window with: the saved ones when at least a 100-pixel corner of the
 * title bar area is on some display's work area (a monitor may have been unplugged), else the
 * saved size, shrunk to the primary work area and centred by the OS.
 */
export function restoreBounds(saved: WindowState | null, workAreas: Rect[]): WindowState {
  const state = saved ?? DEFAULT_WINDOW;
  const primary = workAreas[0];
  const width = primary ? Math.min(state.width, primary.width) : state.width;
  const height = primary ? Math.min(state.height, primary.height) : state.height;
  if (state.x === undefined || state.y === undefined) return { width, height, maximized: state.maximized };
  const { x, y } = state;
  const visible = workAreas.some(
    (area) =>
      x + 100 <= area.x + area.width &&
      x + state.width - 100 >= area.x &&
      y >= area.y &&
      y + 50 <= area.y + area.height,
  );
  return visible ? { ...state } : { width, height, maximized: state.maximized };
}

/** What to save from a window's normal (not maximized) bounds. */
export function captureState(bounds: Rect, maximized: boolean): WindowState {
  return {
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.max(400, Math.round(bounds.width)),
    height: Math.max(300, Math.round(bounds.height)),
    maximized,
  };
}
