// Chromium trace events (the JSON of a performance trace) summed into what the page's main
// thread spent its time on.

/** One event of a Chromium trace ("X" events are complete spans: start `ts`, length `dur`, in µs). */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * Self time (ms) per trace event name on the page's main thread: what the thread did (script,
 * style, layout, pre-paint, paint, commit...), each event's nested events subtracted.
 */
export function selfTimes(events: readonly TraceEvent[]): [string, number][] {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return [];
  const spans = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  for (const span of spans) {
    const dur = span.dur ?? 0;
    while (stack.length && (stack[stack.length - 1]?.end ?? 0) <= span.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - dur);
    self.set(span.name, (self.get(span.name) ?? 0) + dur);
    stack.push({ end: span.ts + dur, name: span.name });
  }
  return [...self.entries()]
    .map(([name, us]): [string, number] => [name, Math.round(us / 1000)])
    .sort((a, b) => b[1] - a[1]);
}
