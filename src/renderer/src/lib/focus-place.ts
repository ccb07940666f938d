// Where the keyboard focus goes when a change of place leaves it behind: the palette ran a result
// (the browser hands the focus back to what had it before the palette, often the sidebar), or the
// focused element went away with the old view (focus falls to <body>, and the next Tab starts
// over at the top of the sidebar).
//
// Contract with the views: an open task's panel is `[data-testid="detail-panel"]` and takes the
// focus itself (tabindex -1; the plain task keys then act on that task), as does an open CRM
// record (`[data-testid="crm-detail"]`); a view's list is its `main [role="grid"]`; every view has
// a Toolbar whose title is `[data-testid="view-title"]` (tabindex -1), the fallback.

/** How long a view may take to draw its list or panel after the place changed. */
const SETTLE_MS = 1500;
const STEP_MS = 30;

/** The best place for the focus in what is drawn now; undefined when nothing is drawn yet. */
export function placeTarget(doc: Document): HTMLElement | undefined {
  const main = doc.querySelector('main');
  return (
    doc.querySelector<HTMLElement>('[data-testid="detail-panel"]') ??
    main?.querySelector<HTMLElement>('[data-testid="crm-detail"]') ??
    main?.querySelector<HTMLElement>('[role="grid"][tabindex]') ??
    main?.querySelector<HTMLElement>('[data-testid="view-title"]') ??
    undefined
  );
}

/** Whether the focus is nowhere a user can see or continue from (<body>, or a closed dialog). */
export function focusIsLost(doc: Document): boolean {
  const active = doc.activeElement;
  return !active || active === doc.body || !active.isConnected || !!active.closest('dialog:not([open])');
}

function settled(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/**
 * Moves the focus into the current place: the title at once (so a Tab pressed meanwhile starts in
 * the view), then the list or the task panel when the view draws one, unless the user moved the
 * focus meanwhile. Leaves an open dialog alone: it holds the focus and hands it back on close.
 */
export async function focusPlace(doc: Document = document): Promise<void> {
  let placed: HTMLElement | undefined;
  for (let waited = 0; waited <= SETTLE_MS; waited += STEP_MS) {
    if (doc.querySelector('dialog[open]')) return;
    if (placed && doc.activeElement !== placed) return;
    const target = placeTarget(doc);
    if (target && target !== placed) {
      target.focus({ preventScroll: true });
      if (doc.activeElement === target) placed = target;
      if (!target.matches('[data-testid="view-title"]') && placed === target) return;
    }
    await settled(STEP_MS);
  }
}
