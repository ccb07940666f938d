// A Svelte action that makes any element a drop target for files: while files are dragged over
// it, it is outlined and says what dropping will do; on drop it hands over the files. Nested
// targets take the drop themselves (the innermost one wins).
import { dragCount, filesOf, isFileDrag, type DroppedFile } from '../../state/attachments.svelte';

export interface DropTargetOptions {
  /** What dropping `count` files here will do, e.g. "Attach 3 files to 'Budget'". */
  label: (count: number) => string;
  ondrop: (files: DroppedFile[]) => void;
  disabled?: boolean;
}

/** The outlined note shown over a target while files are dragged over it. */
function makeHint(): HTMLDivElement {
  const made = document.createElement('div');
  made.setAttribute('data-testid', 'drop-hint');
  made.setAttribute('role', 'status');
  Object.assign(made.style, {
    position: 'absolute',
    inset: '0',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    padding: '4px 8px',
    background: 'color-mix(in srgb, var(--color-info-bg) 88%, transparent)',
    outline: '2px dashed var(--color-accent)',
    outlineOffset: '-2px',
    borderRadius: 'var(--radius-md, 6px)',
    color: 'var(--color-accent-text)',
    fontWeight: '600',
    fontSize: 'var(--text-sm, 13px)',
    pointerEvents: 'none',
    zIndex: '5',
    textAlign: 'center',
  } satisfies Partial<CSSStyleDeclaration>);
  return made;
}

export function dropTarget(node: HTMLElement, initial: DropTargetOptions) {
  let options = initial;
  let depth = 0;
  // The hint is made on the first drag over this target: a task grid makes a target of every
  // row it renders, and almost none of them ever sees a drag.
  let hint: HTMLDivElement | undefined;

  function show(count: number): void {
    hint ??= makeHint();
    hint.textContent = options.label(count);
    if (getComputedStyle(node).position === 'static') node.style.position = 'relative';
    if (!hint.isConnected) node.append(hint);
    node.dataset['dropOver'] = 'true';
  }
  function hide(): void {
    depth = 0;
    hint?.remove();
    delete node.dataset['dropOver'];
  }
  const enter = (event: DragEvent): void => {
    if (options.disabled || !isFileDrag(event)) return;
    event.preventDefault();
    event.stopPropagation();
    depth += 1;
    show(dragCount(event));
  };
  const over = (event: DragEvent): void => {
    if (options.disabled || !isFileDrag(event)) return;
    event.preventDefault();
    event.stopPropagation();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    if (!hint?.isConnected) show(dragCount(event));
  };
  const leave = (event: DragEvent): void => {
    if (options.disabled || !isFileDrag(event)) return;
    event.stopPropagation();
    depth -= 1;
    if (depth <= 0) hide();
  };
  const drop = (event: DragEvent): void => {
    if (options.disabled || !isFileDrag(event)) return;
    event.preventDefault();
    event.stopPropagation();
    hide();
    const files = filesOf(event.dataTransfer);
    if (files.length) options.ondrop(files);
  };
  node.addEventListener('dragenter', enter);
  node.addEventListener('dragover', over);
  node.addEventListener('dragleave', leave);
  node.addEventListener('drop', drop);
  return {
    update(next: DropTargetOptions): void {
      options = next;
    },
    destroy(): void {
      hide();
      node.removeEventListener('dragenter', enter);
      node.removeEventListener('dragover', over);
      node.removeEventListener('dragleave', leave);
      node.removeEventListener('drop', drop);
    },
  };
}

/**
 * Files dragged anywhere that is not a drop target (the targets stop their events first): the
 * pointer says no, and a drop is refused with `onstray` rather than left to the browser, which
 * opens the dropped file in place of the app (the web host; Electron's shell refuses it too).
 * Answers the unsubscribe.
 */
export function refuseStrayDrops(target: Window, onstray: (count: number) => void): () => void {
  const over = (event: DragEvent): void => {
    if (!isFileDrag(event)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
  };
  const drop = (event: DragEvent): void => {
    if (!isFileDrag(event)) return;
    event.preventDefault();
    onstray(dragCount(event) || filesOf(event.dataTransfer).length);
  };
  target.addEventListener('dragover', over);
  target.addEventListener('drop', drop);
  return () => {
    target.removeEventListener('dragover', over);
    target.removeEventListener('drop', drop);
  };
}
