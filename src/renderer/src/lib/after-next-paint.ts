// Work that should not hold back a frame's paint: run after it instead.

/**
 * Calls `fn` once the next frame has been painted; returns the cancel. A frame's animation
 * callbacks run before its paint, so work done in them holds the paint back (and every callback
 * queued after them): the frame's callback only posts a task, which the browser runs after the
 * paint. A message, not a timer: a timer may wait a few milliseconds more.
 */
export function afterNextPaint(fn: () => void): () => void {
  let cancelled = false;
  let channel: MessageChannel | undefined;
  const frame = requestAnimationFrame(() => {
    if (cancelled) return;
    channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel?.port1.close();
      if (!cancelled) fn();
    };
    channel.port2.postMessage(undefined);
  });
  return () => {
    cancelled = true;
    cancelAnimationFrame(frame);
    channel?.port1.close();
  };
}
