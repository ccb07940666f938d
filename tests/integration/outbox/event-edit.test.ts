// Editing an event: the service has no event update, so the edit is a create of the new event
// and then a delete of the old one, through the outbox. The delete waits for the create's
// acknowledgement; a refused create holds it back (the old event stays on the service) and
// discarding that create brings the old one back; a lost answer of the create is looked up.
import { describe, expect, it } from 'vitest';
import { writesSuite, type TestEngine } from './support';
import { eventEndpoints } from '../../../src/shared/api/events';

const suite = writesSuite();

const OFFSITE = {
  eventType: 'company-event',
  name: 'Team offsite',
  startDate: '2026-12-07',
  endDate: '2026-12-09',
} as const;

/** A company event created through the outbox and acknowledged: its real id. */
async function syncedEvent(e: TestEngine, name: string): Promise<string> {
  const { id } = await e.call('events.create', { ...OFFSITE, name });
  await e.drained();
  return e.outbox.realIdOf(id);
}

const december = () =>
  suite.api.call(eventEndpoints.events, { query: { startDate: '2026-12-01', endDate: '2026-12-31' } });

describe('editing an event through the outbox', () => {
  it('creates the edited event, then deletes the old one, in that order', async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    const old = await syncedEvent(e, 'Offsite draft');
    const before = suite.proxy.requests().length;
    const edited = await e.call('events.edit', {
      eventId: old,
      input: { ...OFFSITE, name: 'Offsite, final', startDate: '2026-12-08', endDate: '2026-12-10' },
    });
    // At once, before anything is sent: the old is hidden, the new one shows.
    expect(e.cache.events.storedRow(old)).toBeUndefined();
    expect(e.cache.events.storedRow(edited.id)).toMatchObject({ name: 'Offsite, final' });
    await e.drained();
    const sent = suite.proxy
      .requests()
      .slice(before)
      .filter((r) => /^(POST \/2\.0\/events|DELETE \/2\.0\/event\/)/.test(r));
    expect(sent).toEqual(['POST /2.0/events', `DELETE /2.0/event/${old}`]);
    const listed = (await december()).filter((x) => x.name.startsWith('Offsite'));
    expect(listed.map((x) => [x.id, x.name, x.startDate, x.endDate])).toEqual([
      [e.outbox.realIdOf(edited.id), 'Offsite, final', '2026-12-08', '2026-12-10'],
    ]);
    await expect(suite.api.call(eventEndpoints.event, { id: old })).rejects.toMatchObject({ status: 404 });
    expect(e.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('keeps the old event when the create is refused, and brings it back when the edit is discarded', async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    const old = await syncedEvent(e, 'Kept offsite');
    suite.proxy.set({ serverError: { next: 1, status: 400, match: /^POST \/2\.0\/events$/ } });
    const before = suite.proxy.requests().length;
    await e.call('events.edit', { eventId: old, input: { ...OFFSITE, name: 'Refused offsite' } });
    await expect.poll(() => e.outbox.entries('failed').length, { timeout: 20_000 }).toBe(1);
    // The delete waits behind the refused create: not sent, the old event is on the service.
    const [held] = e.outbox.entries('pending');
    expect(held).toMatchObject({ kind: 'event.delete' });
    expect(suite.proxy.requests().slice(before)).not.toContain(`DELETE /2.0/event/${old}`);
    expect(await suite.api.call(eventEndpoints.event, { id: old })).toMatchObject({
      id: old,
      name: 'Kept offsite',
    });

    const [failed] = e.outbox.entries('failed');
    e.outbox.discard(failed!.id);
    expect(e.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
    expect(e.cache.events.storedRow(old)).toMatchObject({ name: 'Kept offsite' });
    expect((await december()).filter((x) => x.name === 'Refused offsite')).toEqual([]);
    expect(await suite.api.call(eventEndpoints.event, { id: old })).toMatchObject({ id: old });
  });

  it('looks the create up when its answer is lost: one new event, the old one deleted', async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    const old = await syncedEvent(e, 'Lost-answer offsite');
    suite.proxy.set({ dropAfter: { next: 1, match: /^POST \/2\.0\/events$/ } });
    const edited = await e.call('events.edit', {
      eventId: old,
      input: { ...OFFSITE, name: 'Looked-up offsite' },
    });
    await e.drained();
    expect(suite.proxy.stats().injected.dropAfter).toBeGreaterThanOrEqual(1);
    const made = (await december()).filter((x) => x.name === 'Looked-up offsite');
    expect(made.map((x) => x.id)).toEqual([e.outbox.realIdOf(edited.id)]);
    await expect(suite.api.call(eventEndpoints.event, { id: old })).rejects.toMatchObject({ status: 404 });
    expect(e.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('refuses an edit of an event it does not have, queuing nothing', async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    await expect(e.call('events.edit', { eventId: 'no-such-event', input: OFFSITE })).rejects.toMatchObject({
      field: 'eventId',
    });
    expect(e.outbox.status()).toMatchObject({ pending: 0 });
  });
});
