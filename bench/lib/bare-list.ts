// The floor for the renderer's scroll figure: a virtual list of the same size, row height,
// columns and viewport as the task grid, written in plain DOM with no framework, no controls and
// no clipping — each row a grid of text cells, re-filled as it scrolls. Scrolled like the app's
// list in the same Chromium and the same run, it says how much of a frame is the browser's own
// cost of bringing that many rows into view on this machine, and how much is the app's.

/** Where and how the app's list is laid out, for the bare list to match. */
export interface ListShape {
  rows: number;
  rowHeight: number;
  /** The grid's `grid-template-columns`. */
  columns: string;
  /** The scroller's box in the viewport (px). */
  box: { left: number; top: number; width: number; height: number };
}

/** A page holding the bare list, with the app's test ids on its scroller. */
export function bareListPage({ rows, rowHeight, columns, box }: ListShape): string {
  return `<!doctype html><html><head><style>
  body { margin: 0; font: 13px system-ui, sans-serif; }
  .frame { position: fixed; left: ${box.left}px; top: ${box.top}px; width: ${box.width}px;
    height: ${box.height}px; display: flex; flex-direction: column; }
  .scroller { flex: 1; overflow: auto; contain: strict; position: relative; background: #fff; }
  .spacer { position: relative; height: ${rows * rowHeight}px; }
  .row { position: absolute; left: 0; width: 100%; height: ${rowHeight}px; box-sizing: border-box;
    contain: size layout style; display: grid; grid-template-columns: ${columns}; align-items: center;
    padding: 0 16px; border-bottom: 1px solid #e5e7eb; white-space: nowrap; }
  .row > span { padding: 0 8px; min-width: 0; }
</style></head><body><div class="frame">
<div data-testid="task-table"><div class="scroller" data-testid="virtual-list"><div class="spacer"></div></div></div>
</div><script>
  const ROWS = ${rows}, HEIGHT = ${rowHeight}, OVERSCAN = 12;
  const table = document.querySelector('[data-testid="task-table"]');
  Object.assign(table.style, { flex: '1', minHeight: '0', display: 'flex', flexDirection: 'column' });
  const scroller = table.firstElementChild, spacer = scroller.firstElementChild;
  const slots = [];
  const make = () => {
    const row = document.createElement('div');
    row.className = 'row';
    for (let c = 0; c < 9; c++) row.appendChild(document.createElement('span'));
    spacer.appendChild(row);
    return row;
  };
  const STATUSES = ['Not started', 'In progress', 'On hold', 'Done'];
  const fill = (row, i) => {
    const cells = row.children;
    row.style.top = i * HEIGHT + 'px';
    cells[1].textContent = '#' + (i + 1) + '  Review invoice ' + i;
    cells[2].textContent = STATUSES[i % 4];
    cells[3].textContent = 'User ' + (i % 7);
    cells[4].textContent = 'User ' + (i % 5);
    cells[5].textContent = String(1 + (i % 10));
    cells[6].textContent = 'Mar ' + (1 + (i % 28)) + ', 2027';
    cells[7].textContent = (i * 7) % 101 + '%';
  };
  const render = () => {
    const first = Math.max(0, Math.floor(scroller.scrollTop / HEIGHT) - OVERSCAN);
    const last = Math.min(ROWS - 1, Math.ceil((scroller.scrollTop + scroller.clientHeight) / HEIGHT) + OVERSCAN);
    const count = last - first + 1;
    while (slots.length < count) slots.push({ row: make(), index: -1 });
    // A row keeps its index while it stays in view; the others are re-filled (as the app's rows are).
    const wanted = new Set();
    for (let i = first; i <= last; i++) wanted.add(i);
    const free = [];
    for (const slot of slots) {
      if (wanted.has(slot.index)) wanted.delete(slot.index);
      else free.push(slot);
    }
    for (const i of wanted) { const slot = free.pop(); slot.index = i; fill(slot.row, i); }
    for (const slot of free) { slot.index = -1; slot.row.style.top = '-1000px'; }
  };
  scroller.addEventListener('scroll', render, { passive: true });
  render();
</script></body></html>`;
}
