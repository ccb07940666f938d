import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Renderer code imports shared code as `@shared/...`, as electron.vite.config.ts resolves it.
const shared = fileURLToPath(new URL('./src/shared', import.meta.url));

export default defineConfig({
  test: {
    // The default report, then the tests that passed only on a retry (tests/support).
    reporters: ['default', './tests/support/retried-reporter.ts'],
    projects: [
      {
        resolve: { alias: { '@shared': shared } },
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // The engine and outbox suites once more against the goodday profile (GoodDay's live
      // answers): `startService` reads the profile from this variable when a test names none.
      // Files that already run on both profiles themselves are left out.
      {
        test: {
          name: 'integration-goodday',
          include: ['tests/integration/{engine,outbox}/**/*.test.ts'],
          exclude: [
            'tests/integration/engine/updates.test.ts',
            'tests/integration/outbox/todo-lists.test.ts',
            'tests/integration/outbox/time-report-writes.test.ts',
            'tests/integration/outbox/rebuilt-cache.test.ts',
            'tests/integration/outbox/lost-create-answers.test.ts',
          ],
          env: { WORKDESK_SERVICE_PROFILE: 'goodday' },
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // faults (issue 10): the IPC fuzz and the bounded fault campaign (tests/faults/README.md).
      {
        test: {
          name: 'faults',
          include: ['tests/faults/**/*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 60_000,
          // The campaign runs its own child processes; one file at a time on two cores.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A value read off the page after an action is polled until it settles: the view draws
          // the answer of an IPC round trip, which takes longer than a second on a loaded machine.
          expect: { poll: { timeout: 10_000 } },
          // One Chromium at a time: these machines have two cores.
          fileParallelism: false,
          // A test that fails is run once more, and one that then passes is listed at the end of
          // the run (tests/support/retried-reporter.ts): a browser driven on a loaded two-core
          // machine meets timing no test foresaw, one test in a few hundred per run, each run
          // another; every one found so far was a race in the test or a real fault, fixed.
          retry: 1,
        },
      },
    ],
  },
});
