import { describe, expect, it } from 'vitest';
import { EventHub } from './event-hub';
import { Listeners } from './listeners';

describe('Listeners', () => {
  it('calls every listener even when one throws, logs the throw, and the emitter never sees it', () => {
    const logged: string[] = [];
    const listeners = new Listeners<[value: number]>('test', (m) => logged.push(m));
    const heard: number[] = [];
    listeners.add(() => {
      throw new Error('window closed');
    });
    listeners.add((value) => heard.push(value));
    expect(() => listeners.emit(7)).not.toThrow();
    expect(heard).toEqual([7]);
    expect(logged).toEqual(['test: a listener failed: window closed']);
  });

  it('a log that throws too is swallowed', () => {
    const listeners = new Listeners<[]>('test', () => {
      throw new Error('EPIPE');
    });
    listeners.add(() => {
      throw new Error('window closed');
    });
    expect(() => listeners.emit()).not.toThrow();
  });

  it('unsubscribes, also from within an emit', () => {
    const listeners = new Listeners<[]>('test', () => {});
    let calls = 0;
    const off = listeners.add(() => {
      calls++;
      off();
    });
    listeners.emit();
    listeners.emit();
    expect(calls).toBe(1);
    expect(listeners.size).toBe(0);
  });
});

describe('EventHub', () => {
  it('isolates its listeners: a transport that throws stops neither the others nor the emitter', () => {
    const logged: string[] = [];
    const hub = new EventHub((m) => logged.push(m));
    hub.onAny(() => {
      throw new Error('Object has been destroyed');
    });
    const heard: string[] = [];
    hub.onAny((name) => heard.push(name));
    expect(() =>
      hub.emit('outbox.onDidRemapId', { entity: 'task', tempId: 'tmp-1', realId: '9' }),
    ).not.toThrow();
    expect(heard).toEqual(['outbox.onDidRemapId']);
    expect(logged).toEqual(['events: a listener failed: Object has been destroyed']);
  });
});
