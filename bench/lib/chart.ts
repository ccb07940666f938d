/** Line charts as standalone SVG text: one series per line, each point a median with a min–max bar. */

export interface ChartPoint {
  x: number;
  median: number;
  min: number;
  max: number;
}

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
}

export interface Chart {
  /** File name under bench/results (without .svg). */
  file: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
  /** Logarithmic x axis (sizes 1,000 … 50,000 sit evenly). */
  logX?: boolean;
}

const WIDTH = 640;
const HEIGHT = 360;
const MARGIN = { left: 70, right: 34, top: 40, bottom: 70 };
const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c'];

/** "Nice" round tick values covering [0, max]. */
export function ticks(max: number, count = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  if (out[out.length - 1]! < max) out.push(Number((out[out.length - 1]! + step).toPrecision(12)));
  return out;
}

export function formatNumber(v: number): string {
  if (Math.abs(v) >= 1000) return v.toLocaleString('en-US', { maximumFractionDigits: 0 });
  return String(Number(v.toPrecision(3)));
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function renderChart(chart: Chart): string {
  const points = chart.series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.median));
  const xs = [...new Set(points.map((p) => p.x))].sort((a, b) => a - b);
  const yTicks = ticks(Math.max(...points.map((p) => (Number.isFinite(p.max) ? p.max : p.median)), 0));
  const yMax = yTicks[yTicks.length - 1]!;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const fx = (x: number): number => {
    if (xs.length < 2) return MARGIN.left + plotW / 2;
    const lo = chart.logX ? Math.log(xs[0]!) : xs[0]!;
    const hi = chart.logX ? Math.log(xs[xs.length - 1]!) : xs[xs.length - 1]!;
    const v = chart.logX ? Math.log(x) : x;
    return MARGIN.left + ((v - lo) / (hi - lo)) * plotW;
  };
  const fy = (y: number): number => MARGIN.top + plotH - (y / yMax) * plotH;
  const r = (n: number): string => n.toFixed(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">${escape(chart.title)}</text>`,
  ];
  for (const t of yTicks) {
    out.push(
      `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${r(fy(t))}" y2="${r(fy(t))}" stroke="#e5e7eb"/>`,
      `<text x="${MARGIN.left - 6}" y="${r(fy(t) + 4)}" text-anchor="end" fill="#374151">${formatNumber(t)}</text>`,
    );
  }
  for (const x of xs) {
    out.push(
      `<line x1="${r(fx(x))}" x2="${r(fx(x))}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH + 5}" stroke="#374151"/>`,
      `<text x="${r(fx(x))}" y="${MARGIN.top + plotH + 18}" text-anchor="middle" fill="#374151">${formatNumber(x)}</text>`,
    );
  }
  out.push(
    `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH}" stroke="#374151"/>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="#374151"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${MARGIN.top + plotH + 36}" text-anchor="middle">${escape(chart.xLabel)}</text>`,
    `<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escape(chart.yLabel)}</text>`,
  );
  chart.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    const valid = s.points.filter((p) => Number.isFinite(p.median)).sort((a, b) => a.x - b.x);
    if (valid.length > 1) {
      const d = valid.map((p, k) => `${k === 0 ? 'M' : 'L'}${r(fx(p.x))},${r(fy(p.median))}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>`);
    }
    for (const p of valid) {
      if (Number.isFinite(p.min) && Number.isFinite(p.max) && p.max > p.min) {
        const x = r(fx(p.x));
        out.push(
          `<line x1="${x}" x2="${x}" y1="${r(fy(p.min))}" y2="${r(fy(p.max))}" stroke="${color}" stroke-width="1.5"/>`,
          `<line x1="${r(fx(p.x) - 4)}" x2="${r(fx(p.x) + 4)}" y1="${r(fy(p.min))}" y2="${r(fy(p.min))}" stroke="${color}"/>`,
          `<line x1="${r(fx(p.x) - 4)}" x2="${r(fx(p.x) + 4)}" y1="${r(fy(p.max))}" y2="${r(fy(p.max))}" stroke="${color}"/>`,
        );
      }
      out.push(
        `<circle cx="${r(fx(p.x))}" cy="${r(fy(p.median))}" r="3.5" fill="${color}"><title>${escape(s.name)}: ${formatNumber(p.x)} → ${formatNumber(p.median)} (${formatNumber(p.min)}–${formatNumber(p.max)})</title></circle>`,
      );
    }
    const lx = MARGIN.left + i * 190;
    const ly = HEIGHT - 14;
    out.push(
      `<rect x="${lx}" y="${ly - 9}" width="14" height="4" fill="${color}"/>`,
      `<text x="${lx + 20}" y="${ly - 3}">${escape(s.name)}</text>`,
    );
  });
  out.push(
    `<text x="${WIDTH - MARGIN.right}" y="${HEIGHT - 4}" text-anchor="end" font-size="10" fill="#6b7280">dot: median · bar: min–max</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
