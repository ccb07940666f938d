// Drafts kept by the core (`drafts.get`/`drafts.set`: the account's outbox file, never thrown
// away), so what was typed in a message box or the New task dialog survives a restart, a crash
// and a rebuilt cache. Writes follow
// typing after a short pause; leaving the page writes what waits at once.
import type { ChannelInput } from '@shared/ipc/contract';
import { bridge } from '../lib/bridge';
import { runWrite } from './writes';

type Key = ChannelInput<'drafts.get'>['key'];

const PAUSE_MS = 250;
const waiting = new Map<Key, { text: string; timer: ReturnType<typeof setTimeout> }>();

/** On the write path with no toast: a closed core keeps the in-memory draft (lib/drafts) for this run. */
function write(key: Key, text: string): void {
  void runWrite('drafts.set', { key, text });
}

export const draftStore = {
  /** The kept text ('' when none, or when the core cannot answer). */
  async load(key: Key): Promise<string> {
    const pending = waiting.get(key);
    if (pending) return pending.text;
    try {
      return (await bridge.invoke('drafts.get', { key })).text;
    } catch {
      return '';
    }
  },
  /** Keeps `text` for `key` after a short pause (each keystroke restarts it). */
  save(key: Key, text: string): void {
    const pending = waiting.get(key);
    if (pending) clearTimeout(pending.timer);
    waiting.set(key, {
      text,
      timer: setTimeout(() => {
        waiting.delete(key);
        write(key, text);
      }, PAUSE_MS),
    });
  },
  /** Writes every draft still waiting for its pause (the page is going away). */
  flush(): void {
    for (const [key, { text, timer }] of waiting) {
      clearTimeout(timer);
      write(key, text);
    }
    waiting.clear();
  },
};

if (typeof window !== 'undefined') window.addEventListener('pagehide', () => draftStore.flush());
