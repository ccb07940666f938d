// Prints, at the end of a run, every test that failed and then passed on its retry (only the
// end-to-end project retries, once). Such a test is not a pass to forget: it is a race, in the
// test or in the app, to find and fix, so the list is printed last, where a run's reader looks.
import type { Reporter, TestCase } from 'vitest/node';

export default class RetriedReporter implements Reporter {
  readonly #retried: string[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const diagnostic = testCase.diagnostic();
    if (diagnostic?.flaky)
      this.#retried.push(
        `${testCase.project.name}: ${testCase.module.relativeModuleId} > ${testCase.fullName}`,
      );
  }

  onTestRunEnd(): void {
    if (!this.#retried.length) return;
    process.stdout.write(
      `\nPassed only on a retry (${this.#retried.length}): a race to find and fix\n${this.#retried
        .map((name) => `  - ${name}`)
        .join('\n')}\n`,
    );
  }
}
