import { describe, expect, it } from 'vitest';
import {
  clampSidebarWidth,
  SIDEBAR_MAX_PX,
  SIDEBAR_MIN_PX,
  sidebarMaxWidth,
  sidebarWidthAfterKey,
} from './sidebar-width';

describe('sidebar width', () => {
  it('keeps a width between the minimum and the maximum', () => {
    expect(clampSidebarWidth(100, 1600)).toBe(SIDEBAR_MIN_PX);
    expect(clampSidebarWidth(300.4, 1600)).toBe(300);
    expect(clampSidebarWidth(2000, 1600)).toBe(SIDEBAR_MAX_PX);
  });

  it('never takes more than half a small window, nor less than the minimum', () => {
    expect(sidebarMaxWidth(600)).toBe(300);
    expect(clampSidebarWidth(450, 600)).toBe(300);
    expect(sidebarMaxWidth(200)).toBe(SIDEBAR_MIN_PX);
  });

  it('reads a damaged width as the minimum', () => {
    expect(clampSidebarWidth(Number.NaN, 1600)).toBe(SIDEBAR_MIN_PX);
    expect(clampSidebarWidth(Number.POSITIVE_INFINITY, 1600)).toBe(SIDEBAR_MIN_PX);
  });

  it('moves by a step per arrow key, four with Shift, to the bounds with Home and End', () => {
    expect(sidebarWidthAfterKey('ArrowRight', false, 240, 1600)).toBe(256);
    expect(sidebarWidthAfterKey('ArrowLeft', false, 240, 1600)).toBe(224);
    expect(sidebarWidthAfterKey('ArrowRight', true, 240, 1600)).toBe(304);
    expect(sidebarWidthAfterKey('ArrowLeft', false, SIDEBAR_MIN_PX, 1600)).toBe(SIDEBAR_MIN_PX);
    expect(sidebarWidthAfterKey('Home', false, 240, 1600)).toBe(SIDEBAR_MIN_PX);
    expect(sidebarWidthAfterKey('End', false, 240, 1600)).toBe(SIDEBAR_MAX_PX);
    expect(sidebarWidthAfterKey('Enter', false, 240, 1600)).toBeUndefined();
  });
});
