// The lint rule that orders the core's layers (eslint-rules/core-layers.js), run through ESLint's
// Node API with the project's own config on planted imports.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The layer messages ESLint gives `code` as if it were the file at `path` (from the repository root). */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${path}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'workdesk/core-layers').map((m) => m.message);
}

// The first lint loads the project's whole ESLint config (seconds on a loaded machine).
describe('the core layers lint rule', { timeout: 60_000 }, () => {
  it.each([
    [
      'src/main/core/cache/planted.ts',
      "import { Outbox } from '../outbox/outbox';",
      '`cache` may not import `outbox`',
    ],
    [
      'src/main/core/cache/repos/planted.ts',
      "import { Sync } from '../../sync/sync';",
      '`cache` may not import `sync`',
    ],
    [
      'src/main/core/api/planted.ts',
      "import type { Cache } from '../cache/cache';",
      '`api` may not import `cache`',
    ],
    [
      'src/main/core/sync/planted.ts',
      "import { TempIdMap } from '../outbox/temp-ids';",
      '`sync` may not import `outbox`',
    ],
    [
      'src/main/core/sync/planted.ts',
      "import { ENTITIES } from '../entities';",
      '`sync` may not import `entities`',
    ],
    [
      'src/main/core/outbox/kinds/planted.ts',
      "import { x } from '../../handlers/outbox';",
      '`outbox` may not import `handlers`',
    ],
    [
      'src/main/core/outbox/planted.ts',
      "export { createEngine } from '../engine';",
      '`outbox` may not import `root`',
    ],
    [
      'src/main/core/handlers/planted.ts',
      "import { createDispatch } from '../dispatch';",
      '`handlers` may not import `root`',
    ],
    [
      'src/main/core/handlers/planted.ts',
      "const m = await import('../core');",
      '`handlers` may not import `root`',
    ],
    [
      'src/main/core/errors.ts',
      "import type { Cache } from './cache/cache';",
      '`leaf` may not import `cache`',
    ],
  ])('%s: %s is refused', async (path, code, message) => {
    const errors = await layerErrors(path, `${code}\nexport const planted = 1;\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
    expect(errors[0]).toContain(
      'leaf < api, cache < attachments, sync < entities < outbox < handlers < root',
    );
  });

  it.each([
    ['src/main/core/outbox/planted.ts', "import type { PendingFields } from '../sync/pending';"],
    ['src/main/core/outbox/kinds/planted.ts', "import { HandlerError } from '../../errors';"],
    ['src/main/core/handlers/planted.ts', "import type { AccountOutbox } from '../outbox/account-outbox';"],
    ['src/main/core/cache/repos/planted.ts', "import { LOCAL_ROW_PREFIX } from '../../local-ids';"],
    ['src/main/core/engine.ts', "import { outboxHandlers } from './handlers/outbox';"],
    ['src/main/core/accounts/planted.ts', "import { createCore } from '../core';"],
    // Tests may build what the layer above offers (a sync test with an outbox to talk to).
    ['src/main/core/sync/planted.test.ts', "import { stoppedClockOutbox } from '../outbox/testing';"],
  ])('%s: %s is allowed', async (path, code) => {
    expect(await layerErrors(path, `${code}\nexport const planted = 1;\n`)).toEqual([]);
  });
});
