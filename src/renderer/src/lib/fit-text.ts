// Text clipped with an ellipsis only when it does not fit its box. A clip (`overflow: hidden`)
// is a paint layer and a clip node for Chromium to build, paint and layerize again in every
// frame that fills a row: with four clipped cells a row, the task grid's scroll frames took
// about 40 % longer than with none (bench/profile-renderer.ts; README, Performance). Most
// cells' text fits, so a cell is clipped only once its text is seen to overflow.
//
// The check runs in a ResizeObserver callback, that is after Chromium laid the page out and
// before it paints: reading the sizes there costs no extra layout, and a box whose text
// overflows is clipped before it is ever painted unclipped.
//
// A clipped text shows its whole text as a tooltip. The `title` is put in when the pointer comes
// over it, not kept up to date with the text: Chromium's own style sheet has `abbr[title]`, so
// changing any element's `title` restyles it, and the task grid would restyle a cell or two of
// every row it re-fills while scrolling for a tooltip nobody is looking at.
import type { Attachment } from 'svelte/attachments';

let observer: ResizeObserver | undefined;
/** The elements fitted, and those whose `title` was put in here (so it is ours to take out). */
const fitted = new WeakSet<Element>();
const titled = new WeakSet<Element>();

/** Sets `data-clip` (styled in base.css: overflow hidden, ellipsis) while the text overflows. */
function check(node: Element): void {
  const overflows = node.scrollWidth > node.clientWidth;
  if (overflows !== node.hasAttribute('data-clip')) node.toggleAttribute('data-clip', overflows);
}

function resized(entries: ResizeObserverEntry[]): void {
  for (const entry of entries) check(entry.target);
}

/** The fitted element at or above `target` (a fitted element holds text and decoration). */
function fittedAt(target: EventTarget | null): Element | undefined {
  const node = target instanceof Element ? target : undefined;
  if (node && fitted.has(node)) return node;
  const parent = node?.parentElement;
  return parent && fitted.has(parent) ? parent : undefined;
}

/** The element's own text: a child element (a user's initials) is decoration. */
function ownText(node: Element): string {
  let text = '';
  for (const child of node.childNodes) if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue ?? '';
  return text.trim();
}

/**
 * The tooltip of the text under the pointer: its whole text while it is clipped, none otherwise.
 * `mousemove` as well as `mouseover`, because a list re-fills the element under a resting pointer
 * as it scrolls, and Chromium then moves the pointer in place without a new `mouseover`.
 */
function pointed(event: Event): void {
  const node = fittedAt(event.target);
  if (!node) return;
  const text = node.hasAttribute('data-clip') ? ownText(node) : '';
  if (text) {
    if (node.getAttribute('title') !== text) node.setAttribute('title', text);
    titled.add(node);
  } else if (titled.has(node)) {
    node.removeAttribute('title');
    titled.delete(node);
  }
}

/**
 * `{@attach fitText}`: clips the element's text only while it overflows, and then shows the whole
 * text as its tooltip. The element must hold its text (and at most a decoration element before
 * it, such as a user's initials, whose text is not part of the tooltip), be sized by it up to the room it has
 * (e.g. `display: inline-block; max-width: 100%`, or a flex item with `min-width: 0`) and not wrap
 * (`white-space: nowrap`): then new text or a new room changes its size, which is what is observed.
 * It must have no `title` of its own.
 */
export const fitText: Attachment<HTMLElement> = (node) => {
  if (!observer) {
    observer = new ResizeObserver(resized);
    document.addEventListener('mouseover', pointed, { passive: true });
    document.addEventListener('mousemove', pointed, { passive: true });
  }
  fitted.add(node);
  observer.observe(node);
  return () => {
    observer?.unobserve(node);
    fitted.delete(node);
  };
};
