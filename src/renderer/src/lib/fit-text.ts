// Text clipped with an ellipsis only when it does not fit its box. A clip (`overflow: hidden`)
// is a paint layer and a clip node for Chromium to build, paint and layerize again in every
// frame that fills a row: with four clipped cells a row, the task grid's scroll frames took
// about 40 % longer than with none (bench/profile-renderer.ts; README, Performance). Most
// cells' text fits, so a cell is clipped only once its text is seen to overflow.
//
// The check runs in a ResizeObserver callback, that is after Chromium laid the page out and
// before it paints: reading the sizes there costs no extra layout, and a box whose text
// overflows is clipped before it is ever painted unclipped.
import type { Attachment } from 'svelte/attachments';

let observer: ResizeObserver | undefined;

/** Sets `data-clip` (styled in base.css: overflow hidden, ellipsis) while the text overflows. */
function check(node: Element): void {
  const overflows = node.scrollWidth > node.clientWidth;
  if (overflows !== node.hasAttribute('data-clip')) node.toggleAttribute('data-clip', overflows);
}

function resized(entries: ResizeObserverEntry[]): void {
  for (const entry of entries) check(entry.target);
}

/**
 * `{@attach fitText}`: clips the element's text only while it overflows. The element must be
 * sized by its text up to the room it has (e.g. `display: inline-block; max-width: 100%`, or a
 * flex item with `min-width: 0`) and not wrap (`white-space: nowrap`): then new text or a new
 * room changes its size, which is what is observed.
 */
export const fitText: Attachment<HTMLElement> = (node) => {
  observer ??= new ResizeObserver(resized);
  observer.observe(node);
  return () => observer?.unobserve(node);
};
