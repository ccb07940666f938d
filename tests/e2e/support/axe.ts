/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, ImpactValue, Result, RunOptions } from 'axe-core';

const require = createRequire(import.meta.url);
/** axe-core's browser build, read once; added to a page as an inline script. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0 and 2.1, levels A and AA, and Deque's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] as const;

/** The findings that fail the suite. */
export const FAILING_IMPACTS: readonly ImpactValue[] = ['serious', 'critical'];

/** One rule's finding on one element, as a failing test prints it. */
export interface AxeFinding {
  view: string;
  rule: string;
  impact: ImpactValue;
  help: string;
  target: string;
  summary: string;
}

export interface AxeAudit {
  findings: AxeFinding[];
  /** Rules that found elements to check and passed them: a page axe could not read has none. */
  rulesPassed: number;
  /** What axe could not decide (say, text over a gradient), by rule and element, for a person to look at. */
  undecided: { rule: string; target: string; summary: string }[];
}

/**
 * Runs axe on the whole page and answers every finding (each rule's element, with its impact).
 * The app's CSP allows no inline script: the page's context must be made with `bypassCSP: true`
 * (tests only) for the script to be added.
 */
export async function audit(page: Page, view: string): Promise<AxeAudit> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.addScriptTag({ content: AXE_SOURCE });
  const options: RunOptions = {
    runOnly: { type: 'tag', values: [...AXE_TAGS] },
    resultTypes: ['violations', 'incomplete'],
  };
  const results = await page.evaluate(
    (runOptions) =>
      (
        window as unknown as { axe: { run(context: Document, options: unknown): Promise<AxeResults> } }
      ).axe.run(document, runOptions),
    options,
  );
  const findings = results.violations.flatMap((violation: Result) =>
    violation.nodes.map((node) => ({
      view,
      rule: violation.id,
      impact: node.impact ?? violation.impact ?? 'minor',
      help: violation.help,
      target: node.target.map(String).join(' > '),
      summary: node.failureSummary ?? '',
    })),
  );
  const undecided = results.incomplete.flatMap((rule: Result) =>
    rule.nodes.map((node) => ({
      rule: rule.id,
      target: node.target.map(String).join(' > '),
      summary: node.failureSummary ?? '',
    })),
  );
  return { findings, rulesPassed: results.passes.length, undecided };
}

/** A failing test's message: one block per finding, its rule, element and axe's summary. */
export function describeFindings(findings: readonly AxeFinding[]): string {
  return findings
    .map(
      (f) =>
        `[${f.view}] ${f.rule} (${f.impact}): ${f.help}\n  target: ${f.target}\n  ${f.summary.replace(/\n/g, '\n  ')}`,
    )
    .join('\n\n');
}

export function failing(findings: readonly AxeFinding[]): AxeFinding[] {
  return findings.filter((f) => FAILING_IMPACTS.includes(f.impact));
}
