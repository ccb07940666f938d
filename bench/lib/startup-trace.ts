/// <reference lib="dom" />
// Where the time from "page requested" to "first My Work rows painted" goes, read in the page
// itself: the navigation and resource timings Chromium keeps (what was served, its size on the
// wire and decoded, when it arrived), the paint marks, and every bridge call over the web host's
// WebSocket (sent, answered, its size), recorded by a script Playwright adds before the page's
// own. Nothing in the app is changed to be traced.
import type { Page } from 'playwright-core';
import { showMyWork } from './app-page';

export interface ServedFile {
  name: string;
  /** Page clock (navigation start = 0). */
  startMs: number;
  endMs: number;
  /** Bytes on the wire (headers included) and of the body as sent and as decoded. */
  transferBytes: number;
  encodedBytes: number;
  decodedBytes: number;
}

export interface BridgeCall {
  channel: string;
  sentMs: number;
  answeredMs: number;
  answerBytes: number;
}

export interface StartupTrace {
  /** Page clock, navigation start = 0. */
  htmlRequestMs: number;
  htmlResponseMs: number;
  files: ServedFile[];
  domInteractiveMs: number;
  domContentLoadedMs: number;
  firstPaintMs: number | undefined;
  /** The bridge's WebSocket created: the app's script has run up to its first call. */
  socketCreatedMs: number | undefined;
  socketOpenMs: number | undefined;
  calls: BridgeCall[];
  /** The page's main thread busy for 50 ms or more at once (Chromium's long tasks). */
  longTasks: { startMs: number; ms: number }[];
  /** Clicks the page received (the bench's on Action required). */
  clicks: number[];
  /** The sidebar shown, then the rows painted after the click on Action required. */
  frameMs: number;
  rowsMs: number;
}

/**
 * Installed before the page's scripts: wraps WebSocket to time each bridge call. Kept as text:
 * a function would be passed through the bench's TypeScript loader, whose helpers the page lacks.
 */
const RECORD_BRIDGE = `(() => {
  const trace = { created: undefined, open: undefined, calls: new Map(), longTasks: [], clicks: [] };
  window.__startupTrace = trace;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) trace.longTasks.push({ startMs: entry.startTime, ms: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  window.addEventListener('click', (event) => trace.clicks.push(event.timeStamp), true);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      if (trace.created === undefined) trace.created = performance.now();
      this.addEventListener('open', () => { if (trace.open === undefined) trace.open = performance.now(); });
      this.addEventListener('message', (message) => {
        const text = String(message.data);
        const match = /^\\{"id":(\\d+),/.exec(text);
        const call = match ? trace.calls.get(Number(match[1])) : undefined;
        if (call && call.answeredMs === undefined) {
          call.answeredMs = performance.now();
          call.answerBytes = text.length;
        }
      });
    }
    send(data) {
      if (typeof data === 'string') {
        const match = /^\\{"id":(\\d+),"channel":"([^"]+)"/.exec(data);
        if (match) trace.calls.set(Number(match[1]), { channel: match[2], sentMs: performance.now() });
      }
      super.send(data);
    }
  };
})();`;

/** Loads the app in `page` (fresh), opens My Work as the start-up bench does, and reads the trace. */
export async function traceFirstRows(page: Page, url: string): Promise<StartupTrace> {
  await page.addInitScript({ content: RECORD_BRIDGE });
  const { frameMs, rowsMs } = await showMyWork(page, url);
  const rest = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const files = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
      name: new URL(r.name).pathname,
      startMs: r.startTime,
      endMs: r.responseEnd,
      transferBytes: r.transferSize,
      encodedBytes: r.encodedBodySize,
      decodedBytes: r.decodedBodySize,
    }));
    files.unshift({
      name: '/ (index.html)',
      startMs: nav.requestStart,
      endMs: nav.responseEnd,
      transferBytes: nav.transferSize,
      encodedBytes: nav.encodedBodySize,
      decodedBytes: nav.decodedBodySize,
    });
    const paint = performance.getEntriesByName('first-paint')[0];
    const trace = (
      window as unknown as {
        __startupTrace: {
          created?: number;
          open?: number;
          calls: Map<number, { channel: string; sentMs: number; answeredMs?: number; answerBytes?: number }>;
          longTasks: { startMs: number; ms: number }[];
          clicks: number[];
        };
      }
    ).__startupTrace;
    return {
      htmlRequestMs: nav.requestStart,
      htmlResponseMs: nav.responseEnd,
      files,
      domInteractiveMs: nav.domInteractive,
      domContentLoadedMs: nav.domContentLoadedEventEnd,
      firstPaintMs: paint?.startTime,
      socketCreatedMs: trace.created,
      socketOpenMs: trace.open,
      longTasks: trace.longTasks,
      clicks: trace.clicks,
      calls: [...trace.calls.values()].map((c) => ({
        channel: c.channel,
        sentMs: c.sentMs,
        answeredMs: c.answeredMs ?? Number.NaN,
        answerBytes: c.answerBytes ?? 0,
      })),
    };
  });
  return { ...rest, frameMs, rowsMs };
}

/** The trace as lines for a log: each step on the page's clock (ms), files and calls in order. */
export function describeTrace(trace: StartupTrace, offsetMs = 0): string[] {
  const t = (ms: number | undefined) =>
    ms === undefined || Number.isNaN(ms) ? '–' : `${Math.round(ms + offsetMs)}`;
  const lines = [
    `page: html requested ${t(trace.htmlRequestMs)}, served ${t(trace.htmlResponseMs)}; dom interactive ${t(trace.domInteractiveMs)}, ` +
      `DOMContentLoaded ${t(trace.domContentLoadedMs)}, first paint ${t(trace.firstPaintMs)}; bridge socket created ${t(trace.socketCreatedMs)}, ` +
      `open ${t(trace.socketOpenMs)}; sidebar ${t(trace.frameMs)}; rows painted ${t(trace.rowsMs)}`,
  ];
  lines.push(
    `  clicked ${trace.clicks.map(t).join(', ')}; main thread busy ≥ 50 ms: ` +
      (trace.longTasks.map((l) => `${t(l.startMs)} for ${Math.round(l.ms)}`).join(', ') || 'never'),
  );
  for (const f of trace.files) {
    lines.push(
      `  file ${f.name}: ${t(f.startMs)} → ${t(f.endMs)}, ${f.encodedBytes} B sent (${f.decodedBytes} B decoded, ${f.transferBytes} B on the wire)`,
    );
  }
  for (const c of trace.calls.filter((call) => call.sentMs <= trace.rowsMs)) {
    lines.push(
      `  call ${c.channel}: sent ${t(c.sentMs)}, answered ${t(c.answeredMs)} (${Math.round(c.answeredMs - c.sentMs)} ms, ${c.answerBytes} B)`,
    );
  }
  return lines;
}
