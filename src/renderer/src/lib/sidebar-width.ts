// The sidebar's width as the user drags or keys it: clamped so the sidebar stays usable and
// the view beside it keeps most of the window.

/** Narrower and the search box and the counts no longer fit. */
export const SIDEBAR_MIN_PX = 176;
/** Wider than this helps no name and takes from the view. */
export const SIDEBAR_MAX_PX = 480;
/** The sidebar never takes more than this share of the window. */
export const SIDEBAR_MAX_SHARE = 0.5;
/** One arrow key press on the handle; Shift+arrow moves four times as far. */
export const SIDEBAR_KEY_STEP_PX = 16;

/** The widest the sidebar may be in a window `windowWidth` wide (never under the minimum). */
export function sidebarMaxWidth(windowWidth: number): number {
  return Math.max(SIDEBAR_MIN_PX, Math.min(SIDEBAR_MAX_PX, Math.floor(windowWidth * SIDEBAR_MAX_SHARE)));
}

/** `width` kept within the bounds for the window, as a whole number of pixels. */
export function clampSidebarWidth(width: number, windowWidth: number): number {
  if (!Number.isFinite(width)) return SIDEBAR_MIN_PX;
  return Math.min(sidebarMaxWidth(windowWidth), Math.max(SIDEBAR_MIN_PX, Math.round(width)));
}

/**
 * The width after a key on the resize handle, or undefined when the key is not the handle's:
 * ←/→ narrow or widen by a step (Shift: four), Home and End go to the bounds.
 */
export function sidebarWidthAfterKey(
  key: string,
  shiftKey: boolean,
  width: number,
  windowWidth: number,
): number | undefined {
  const step = SIDEBAR_KEY_STEP_PX * (shiftKey ? 4 : 1);
  if (key === 'ArrowLeft') return clampSidebarWidth(width - step, windowWidth);
  if (key === 'ArrowRight') return clampSidebarWidth(width + step, windowWidth);
  if (key === 'Home') return SIDEBAR_MIN_PX;
  if (key === 'End') return sidebarMaxWidth(windowWidth);
  return undefined;
}
