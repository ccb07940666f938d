import { describe, expect, it } from 'vitest';
import { formatNumber, renderChart, ticks } from './chart';

describe('ticks', () => {
  it('covers the maximum with round steps from zero', () => {
    expect(ticks(23)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(ticks(1016)).toEqual([0, 250, 500, 750, 1000, 1250]);
    expect(ticks(0.9)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('gives a unit axis for an empty or zero range', () => {
    expect(ticks(0)).toEqual([0, 1]);
    expect(ticks(Number.NaN)).toEqual([0, 1]);
  });
});

describe('renderChart', () => {
  const chart = {
    file: 'x',
    title: 'Sync <time> & more',
    xLabel: 'tasks',
    yLabel: 's',
    logX: true,
    series: [
      {
        name: 'initial',
        points: [
          { x: 1000, median: 2, min: 1.5, max: 3 },
          { x: 50_000, median: 40, min: 40, max: 40 },
        ],
      },
      { name: 'other', points: [{ x: 5000, median: 7, min: 6, max: 9 }] },
    ],
  };
  const svg = renderChart(chart);

  it('is one SVG document with the title escaped', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('Sync &lt;time&gt; &amp; more');
  });

  it('draws a dot per point, a line per series of two or more, and a bar where min and max differ', () => {
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg.match(/<path /g)).toHaveLength(1);
    // Two points have a spread, each drawn as a vertical bar and two caps.
    expect(svg.match(/stroke-width="1.5"/g)).toHaveLength(2);
    expect(svg).toContain('initial: 1,000 → 2 (1.5–3)');
  });

  it('labels the x axis with every size', () => {
    for (const label of ['1,000', '5,000', '50,000']) expect(svg).toContain(`>${label}</text>`);
  });
});

describe('formatNumber', () => {
  it('groups thousands and keeps three significant digits below', () => {
    expect(formatNumber(20_000)).toBe('20,000');
    expect(formatNumber(12.345)).toBe('12.3');
    expect(formatNumber(0.7123)).toBe('0.712');
  });
});
