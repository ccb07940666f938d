// A write names its kind and payload as the kinds define them: a misspelt kind or a payload of
// the wrong shape does not compile. The `@ts-expect-error` lines are checked by `tsc`.
import { describe, expectTypeOf, it } from 'vitest';
import type { AccountOutbox, KindName, KindPayload } from './account-outbox';

/** Never run: what matters is whether each call compiles. */
function writes(outbox: AccountOutbox): void {
  outbox.write('task.addTag', { taskId: 't1', tagId: 'g1' });
  outbox.write('event.delete', { eventId: 'e1' });
  // @ts-expect-error a misspelt kind
  outbox.write('task.adTag', { taskId: 't1', tagId: 'g1' });
  // @ts-expect-error a kind no module defines
  outbox.write('note.create', {});
  // @ts-expect-error a payload missing a field its kind needs
  outbox.write('task.addTag', { taskId: 't1' });
  // @ts-expect-error another kind's payload
  outbox.write('event.delete', { dependencyId: 'd1' });
  // @ts-expect-error a field of the wrong type
  outbox.write('task.comment', { taskId: 't1', message: 42, draftId: 'draft-1' });
}

describe('typed writes', () => {
  it('takes the kind names and payloads from the kinds', () => {
    expectTypeOf(writes).toBeFunction();
    expectTypeOf<'task.create'>().toExtend<KindName>();
    expectTypeOf<'crmContact.update'>().toExtend<KindName>();
    expectTypeOf<'timeReport.create'>().toExtend<KindName>();
    expectTypeOf<'task.createWithFiles'>().toExtend<KindName>();
    expectTypeOf<'task.adTag'>().not.toExtend<KindName>();
    expectTypeOf<KindPayload<'event.delete'>>().toEqualTypeOf<{
      eventId: string;
      replacedBy?: string | undefined;
    }>();
    expectTypeOf<KindPayload<'task.addTag'>>().toEqualTypeOf<{ taskId: string; tagId: string }>();
  });
});
