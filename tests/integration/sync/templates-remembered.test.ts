// A service with no template list (GoodDay's): the New-project dialog takes a typed template id,
// and the ids that made a project the service acknowledged are offered again, per account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from '../outbox/support';

describe('project templates on a service that lists none', () => {
  let svc: RunningService;
  let e: TestEngine;
  beforeAll(async () => {
    svc = await startService({ seed: 'empty', profile: 'goodday' });
    e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
  });
  afterAll(async () => {
    await e?.close();
    await svc?.close();
  });

  it('remembers a typed template id once the project it made is acknowledged, never a refused one', async () => {
    expect((await e.sync.now()).lastError).toBeNull();
    expect(await e.call('projects.templates', {})).toEqual([]);

    await e.call('projects.create', {
      name: 'Made from a typed id',
      projectTemplateId: SEED_IDS.templates.project,
      parentProjectId: SEED_IDS.workspace,
    });
    await e.call('projects.create', {
      name: 'Made from a wrong id',
      projectTemplateId: 'NoSuch',
      parentProjectId: SEED_IDS.workspace,
    });
    await e.drained();
    expect(e.outbox.status().failed).toBe(1);

    expect(await e.call('projects.templates', {})).toEqual([
      {
        id: SEED_IDS.templates.project,
        name: `${SEED_IDS.templates.project} (made "Made from a typed id")`,
        usedBefore: true,
      },
    ]);
  });
});
