/// <reference lib="dom" />
// The page's main thread from the html asked for to a mark the bench sets (the rows painted),
// read from Chromium's own trace (CDP `Tracing`): how long it was busy in all, and its longest
// tasks with what ran inside them. On a shared machine the busy time moves less with the load
// than the wall time does (a task waiting for a core is not busy), so it tells two trees apart
// where the wall clock cannot.
import type { CDPSession, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

export interface MainThreadTask {
  /** Page clock (navigation start = 0), ms. */
  startMs: number;
  ms: number;
  /** The task's largest inner steps, largest first: `name (ms)`. */
  inside: string[];
}

export interface MainThread {
  /** The main thread's tasks summed from navigation start to the mark, ms. */
  busyMs: number;
  /** Navigation start to the mark on the page's clock, ms. */
  wallMs: number;
  /** Tasks of `longMs` or more, in order. */
  long: MainThreadTask[];
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'toplevel',
  'v8.execute',
].join(',');

/** Starts recording the page's trace; call before `page.goto`. */
export async function startMainThreadTrace(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Tracing.start', {
    categories: CATEGORIES,
    transferMode: 'ReportEvents',
  } as never);
  return cdp;
}

/**
 * Ends the trace and reads it: the main thread of the page's renderer from its navigation start
 * to `endMs` on the page's clock (the rows painted). A performance mark set now finds the thread
 * and ties the trace's clock to the page's.
 */
export async function readMainThread(
  cdp: CDPSession,
  page: Page,
  endMs: number,
  longMs = 30,
): Promise<MainThread> {
  const mark = 'bench-main-thread';
  const markMs = await page.evaluate((name) => performance.mark(name).startTime, mark);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => {
    events.push(...(e.value as unknown as TraceEvent[]));
  });
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  const markEvent = events.find((e) => e.name === mark && e.cat.includes('blink.user_timing'));
  if (!markEvent) throw new Error(`the trace holds no mark "${mark}"`);
  const { pid, tid } = markEvent;
  const mine = events.filter((e) => e.pid === pid && e.tid === tid);
  const zero = markEvent.ts - markMs * 1000;
  const end = zero + endMs * 1000;
  // Tasks nest (the scheduler's and the thread's own event for one task): the outermost only.
  const tasks: TraceEvent[] = [];
  for (const e of mine
    .filter(
      (e) =>
        e.ph === 'X' &&
        (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') &&
        e.ts + (e.dur ?? 0) > zero &&
        e.ts < end,
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))) {
    const last = tasks.at(-1);
    if (last && e.ts < last.ts + (last.dur ?? 0)) continue;
    tasks.push(e);
  }
  let busy = 0;
  const long: MainThreadTask[] = [];
  for (const task of tasks) {
    const taskEnd = task.ts + (task.dur ?? 0);
    busy += Math.min(taskEnd, end) - Math.max(task.ts, zero);
    if ((task.dur ?? 0) / 1000 < longMs) continue;
    const inner = mine
      .filter(
        (e) =>
          e !== task &&
          e.ph === 'X' &&
          e.ts >= task.ts &&
          e.ts + (e.dur ?? 0) <= taskEnd &&
          (e.dur ?? 0) >= 3000 &&
          [
            'FunctionCall',
            'EvaluateScript',
            'v8.evaluateModule',
            'v8.compile',
            'Layout',
            'UpdateLayoutTree',
            'Paint',
            'PrePaint',
            'ParseHTML',
            'MinorGC',
            'MajorGC',
            'Commit',
            'ParseAuthorStyleSheet',
          ].includes(e.name),
      )
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 6)
      .map((e) => {
        const data = e.args?.data ?? {};
        const fn = data['functionName']
          ? `${String(data['functionName'])}:${String(data['lineNumber'] ?? '')}`
          : '';
        const what =
          fn ||
          String(data['url'] ?? '')
            .split('/')
            .pop();
        return `${e.name}${what ? ` ${what}` : ''} ${Math.round((e.dur ?? 0) / 1000)}`;
      });
    long.push({ startMs: (task.ts - zero) / 1000, ms: (task.dur ?? 0) / 1000, inside: inner });
  }
  return { busyMs: busy / 1000, wallMs: endMs, long };
}

/** The main thread as lines for a log. */
export function describeMainThread(main: MainThread): string[] {
  return [
    `main thread: busy ${Math.round(main.busyMs)} ms of ${Math.round(main.wallMs)} ms (navigation start → rows painted, page clock)`,
    ...main.long.map(
      (t) =>
        `  task at ${Math.round(t.startMs)} for ${Math.round(t.ms)} ms: ${t.inside.join(', ') || '(nothing ≥ 3 ms inside)'}`,
    ),
  ];
}
