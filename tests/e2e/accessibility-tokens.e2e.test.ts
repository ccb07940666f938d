import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// WCAG 1.4.3: every text colour of a theme (src/renderer/src/styles/tokens.css) against every
// background it is drawn on, at 4.5:1 or more. The axe walk (accessibility.e2e.test.ts) sees only
// the pairs its views happen to show; this sees them all, without a browser.

const css = readFileSync(new URL('../../src/renderer/src/styles/tokens.css', import.meta.url), 'utf8');
const [lightBlock = '', darkBlock = ''] = css.split(":root[data-theme='dark']");

function colors(block: string): Record<string, string> {
  return Object.fromEntries(
    [...block.matchAll(/(--color-[\w-]+):\s*(#[0-9a-fA-F]{6});/g)].map((m) => [m[1]!, m[2]!]),
  );
}
const themes = { light: colors(lightBlock), dark: { ...colors(lightBlock), ...colors(darkBlock) } };

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

const TEXT = ['text', 'text-muted', 'text-faint', 'accent-text', 'danger', 'warning', 'success'];
const BACKGROUNDS = [
  'bg',
  'bg-subtle',
  'bg-sidebar',
  'bg-hover',
  'bg-selected',
  'bg-raised',
  'danger-bg',
  'warning-bg',
  'success-bg',
  'info-bg',
];

describe('theme tokens: text contrast', () => {
  for (const [name, theme] of Object.entries(themes)) {
    it(`${name}: every text colour on every background at 4.5:1 or more`, () => {
      const low: string[] = [];
      for (const text of TEXT)
        for (const background of BACKGROUNDS) {
          const ratio = contrast(theme[`--color-${text}`]!, theme[`--color-${background}`]!);
          if (ratio < 4.5) low.push(`${text} on ${background}: ${ratio.toFixed(2)}`);
        }
      expect(low).toEqual([]);
    });

    it(`${name}: the open row's colour holds its text (faint text is drawn muted there)`, () => {
      for (const text of ['text', 'text-muted', 'accent-text', 'danger'])
        expect(
          contrast(theme[`--color-${text}`]!, theme['--color-bg-selected-strong']!),
          text,
        ).toBeGreaterThanOrEqual(4.5);
    });

    it(`${name}: text on an accent or danger fill (a primary button)`, () => {
      expect(contrast(theme['--color-text-inverse']!, theme['--color-accent']!)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(theme['--color-text-inverse']!, theme['--color-danger']!)).toBeGreaterThanOrEqual(4.5);
    });
  }
});
