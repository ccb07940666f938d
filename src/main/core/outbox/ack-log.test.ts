import { describe, expect, it } from 'vitest';
import { AckLog } from './ack-log';

describe('AckLog', () => {
  it('answers what was acknowledged after a mark, per entity, with "#" for any change', () => {
    const log = new AckLog();
    log.record('task', 't1', ['name'], 0);
    const mark = log.mark();
    log.record('task', 't1', ['priority'], 1);
    log.record('task', 't2', [], 1);
    expect([...log.since('task', 't1', mark)].sort()).toEqual(['#', 'priority']);
    expect([...log.since('task', 't1', 0)].sort()).toEqual(['#', 'name', 'priority']);
    expect([...log.since('task', 't2', mark)]).toEqual(['#']);
    expect([...log.since('project', 't1', mark)]).toEqual([]);
    expect([...log.since('task', 't1', log.mark())]).toEqual([]);
  });

  it('forgets records older than its retention', () => {
    const log = new AckLog(1_000);
    log.record('task', 'old', ['name'], 0);
    // Pruning runs every 256 records.
    for (let i = 0; i < 256; i++) log.record('task', `n${i}`, ['name'], 5_000);
    expect([...log.since('task', 'old', 0)]).toEqual([]);
    expect([...log.since('task', 'n0', 0)].sort()).toEqual(['#', 'name']);
  });
});
