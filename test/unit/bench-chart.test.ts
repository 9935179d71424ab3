import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser, type Element, onWarningStopParsing } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { type BenchResults, chartSvg } from '../../bench/chart.js';
import { ChartFigureError } from '../../bench/chart-figures.js';
import { writeChartBeside } from '../../bench/chart-file.js';
import type { Figure } from '../../bench/report.js';

// The real results the README shows. The expectations below name figures by their exact metric in
// that JSON (not through the chart's own matchers), so a matcher that picks the wrong figure fails.
const latestJson = new URL('../../bench/results/latest.json', import.meta.url);
const results: BenchResults = JSON.parse(readFileSync(latestJson, 'utf8'));
const BAR_SPAN = 440; // bench/chart-panels.ts: the longest possible bar

function figure(metric: string): Figure {
  const found = results.figures.filter((f) => f.metric === metric);
  expect(found, metric).toHaveLength(1);
  return found[0]!;
}

/** A cost figure names its two numbers after its stem ("<stem>: meter 749 vs rule minimum 444.5"): they change every run. */
function costFigure(stem: string): Figure & { meter: number; minimum: number } {
  const found = results.figures.filter((f) => f.metric.startsWith(`${stem}: meter `));
  expect(found, stem).toHaveLength(1);
  const [, meter, minimum] = found[0]!.metric.match(/meter \$?([\d.]+) vs rule minimum \$?([\d.]+)$/)!;
  return { ...found[0]!, meter: Number(meter), minimum: Number(minimum) };
}

const fanoutBars = [
  ['ours: worker, first copy write → last', 'worker copies/s, first copy write → last copy (p50)'],
  ['ours: 201 → last copy (adds stream, outbox, queue)', 'ours copies/s, 201 → last copy (p50)'],
  ['raw BatchWriteItem, 8 in flight', 'raw BatchWriteItem copies/s (8 in flight, same item size, p50)'],
  ['raw BatchWriteItem, 16 in flight', 'raw BatchWriteItem copies/s (16 in flight, same item size, p50)'],
] as const;

const pagingBars = [
  ['page 1 · GET /feed p50 (HTTP API)', 'page 1 GET /feed p50 (HTTP API)'],
  ['page 1 · GET /feed p99 (HTTP API)', 'page 1 GET /feed p99 (HTTP API)'],
  ['page 1 · handler alone p50', 'page 1 handler alone p50'],
  ['page 1 · raw Query p50', 'page 1 raw Query p50 (Limit 22)'],
  ['page 250 · GET /feed p50 (HTTP API)', 'page 250 GET /feed p50 (HTTP API)'],
  ['page 250 · GET /feed p99 (HTTP API)', 'page 250 GET /feed p99 (HTTP API)'],
  ['page 250 · handler alone p50', 'page 250 handler alone p50'],
  ['page 250 · raw Query p50', 'page 250 raw Query p50 (Limit 21)'],
] as const;

const notes = [
  ['fanout', 'worker / raw (the faster)', 'fan-out rate: worker copies/s (first copy write → last) / raw (the faster of 8 and 16 in flight)'],
  ['fanout', '201 → last copy / raw (the faster)', 'end to end: 201 → last copy / raw (the faster)'],
  ['paging', 'page 250 / page 1 (p50, HTTP API)', 'page 250 / page 1 (p50, HTTP API)'],
  ['paging', 'page 1 handler / raw Query (p50)', 'page 1 handler / raw Query (p50)'],
  ['paging', 'page 250 handler / raw Query (p50)', 'page 250 handler / raw Query (p50)'],
] as const;

/** Cost rows whose one figure names both numbers after its stem: "<stem>: meter 749 vs rule minimum 444.5". */
const costInName = [
  ['WCU per POST', 'WCU', 'WCU per post (the POST request)'],
  ['WCU per follower copy', 'WCU', 'WCU per follower copy (fan-out, feed table)'],
  ['RCU per first page (limit 20)', 'RCU', 'RCU per first page (push-only reader, limit 20, head item present)'],
  ['RCU per before page (limit 20)', 'RCU', 'RCU per before page right after a first page (limit 20)'],
  [
    'RCU of trims, amortized',
    'RCU',
    'RCU of trims amortized over 3 feeds × 4000 copies written through writeCopies (attempts where production starts them)',
  ],
  [
    '$ per million posts, 200 followers, full feeds',
    '$',
    '$ per million posts at 200 followers with full feeds (projection: + each of the 201 copies deleted by a count trim, at the amortized trim cost above)',
  ],
] as const;
const dollarsMeter = '$ per million posts at 200 followers (meter; $0.625/M write units, $0.125/M read units, on-demand)';
const dollarsMinimum = '$ per million posts at 200 followers (rule minimum)';
const dollarsRatio = '$ per million posts at 200 followers: meter / rule minimum';

const everyChartedMetric = [
  ...fanoutBars.map(([, m]) => m),
  ...pagingBars.map(([, m]) => m),
  ...notes.map(([, , m]) => m),
  ...costInName.map(([, , stem]) => costFigure(stem).metric),
  dollarsMeter,
  dollarsMinimum,
  dollarsRatio,
];

function parse(svg: string): Element {
  // onWarningStopParsing: any warning or error (not only fatal ones) fails the parse.
  const doc = new DOMParser({ onError: onWarningStopParsing }).parseFromString(svg, 'image/svg+xml');
  return doc.documentElement!;
}

function all(root: Element, tag: string): Element[] {
  return Array.from(root.getElementsByTagName(tag));
}

function byClass(root: Element, tag: string, cls: string): Element[] {
  return all(root, tag).filter((e) => e.getAttribute('class') === cls);
}

function panel(root: Element, id: string): Element {
  const found = all(root, 'g').filter((g) => g.getAttribute('id') === `panel-${id}`);
  expect(found, id).toHaveLength(1);
  return found[0]!;
}

/** The group in a panel whose label text is `label`. */
function row(container: Element, cls: string, label: string): Element {
  const found = byClass(container, 'g', cls).filter((g) => byClass(g, 'text', 'label')[0]?.textContent === label);
  expect(found, label).toHaveLength(1);
  return found[0]!;
}

const textOf = (g: Element, cls: string) => byClass(g, 'text', cls)[0]?.textContent;
const widths = (g: Element) => all(g, 'rect').map((r) => Number(r.getAttribute('width')));
const svg = chartSvg(results);
const root = parse(svg);

describe('chartSvg on bench/results/latest.json', () => {
  it('is a well-formed standalone SVG that GitHub can show as an image', () => {
    expect(root.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(root.localName).toBe('svg');
    const [width, height] = [root.getAttribute('width'), root.getAttribute('height')];
    expect(root.getAttribute('viewBox')).toBe(`0 0 ${width} ${height}`);
    const firstChild = Array.from(root.childNodes).find((n) => n.nodeType === n.ELEMENT_NODE) as Element;
    expect(firstChild.localName).toBe('title');
    expect(firstChild.textContent).toMatch(/benchmark/);
    for (const tag of ['script', 'style', 'foreignObject', 'image', 'a', 'use']) expect(all(root, tag), tag).toHaveLength(0);
    for (const e of all(root, '*')) {
      for (const attr of Array.from(e.attributes)) expect(attr.name, `${e.localName} ${attr.name}`).not.toMatch(/^on|href$/i);
    }
    expect(svg).not.toMatch(/url\(|@import|@font-face/);
  });

  it('draws each fan-out and paging figure as a labelled bar with its value, on one zero-based scale per panel', () => {
    for (const [id, bars] of [['fanout', fanoutBars], ['paging', pagingBars]] as const) {
      const p = panel(root, id);
      expect(byClass(p, 'g', 'bar'), id).toHaveLength(bars.length);
      const drawn = bars.map(([label, metric]) => {
        const f = figure(metric);
        const g = row(p, 'bar', label);
        expect(textOf(g, 'value'), label).toBe(`${f.value} ${f.unit}`);
        return { label, value: f.value, width: widths(g)[0]! };
      });
      // Every bar's length is its value times one factor (to the file's 0.1 px), and the longest fits.
      const longest = drawn.reduce((a, b) => (b.value > a.value ? b : a));
      expect(longest.width).toBeLessThanOrEqual(BAR_SPAN);
      const perUnit = longest.width / longest.value;
      for (const bar of drawn) expect(Math.abs(bar.width - bar.value * perUnit), bar.label).toBeLessThanOrEqual(0.15);
    }
  });

  it('keeps the page depths apart: page 250 bars carry the page 250 figures', () => {
    const p = panel(root, 'paging');
    const deep = figure('page 250 GET /feed p99 (HTTP API)');
    const first = figure('page 1 GET /feed p99 (HTTP API)');
    expect(deep.value).not.toBe(first.value); // else this test could not tell them apart: rerun the bench
    expect(textOf(row(p, 'bar', 'page 250 · GET /feed p99 (HTTP API)'), 'value')).toBe(`${deep.value} ms`);
    expect(textOf(row(p, 'bar', 'page 1 · GET /feed p99 (HTTP API)'), 'value')).toBe(`${first.value} ms`);
  });

  it('prints each ratio under its panel with its target and whether it was met', () => {
    for (const [id, label, metric] of notes) {
      const f = figure(metric);
      const lines = byClass(panel(root, id), 'text', 'note').map((t) => t.textContent);
      const verdict = f.target ? ` (target ${f.target}: ${f.met ? 'met ✓' : 'not met ✗'})` : '';
      expect(lines, label).toContain(`${label}: ${f.value}×${verdict}`);
    }
  });

  it('draws each cost row as meter vs minimum with the numbers the figures carry', () => {
    const p = panel(root, 'cost');
    const expected = [
      ...costInName.map(([label, unit, stem]) => {
        const f = costFigure(stem);
        return { label, unit, meter: f.meter, minimum: f.minimum, target: f.target, met: f.met };
      }),
      {
        label: '$ per million posts, 200 followers',
        unit: '$',
        meter: figure(dollarsMeter).value,
        minimum: figure(dollarsMinimum).value,
        target: figure(dollarsRatio).target,
        met: figure(dollarsRatio).met,
      },
    ];
    expect(byClass(p, 'g', 'cost-row')).toHaveLength(expected.length);
    for (const e of expected) {
      const g = row(p, 'cost-row', e.label);
      const amount = (n: number) => (e.unit === '$' ? `$${n}` : `${n} ${e.unit}`);
      expect(textOf(g, 'meter'), e.label).toBe(`meter ${amount(e.meter)}`);
      expect(textOf(g, 'minimum'), e.label).toBe(`minimum ${amount(e.minimum)}`);
      expect(textOf(g, 'ratio'), e.label).toBe(`${Number((e.meter / e.minimum).toFixed(3))}× min (target ${e.target}: ${e.met ? 'met ✓' : 'not met ✗'})`);
      const [meterWidth, minimumWidth] = widths(g);
      // Each row on its own scale: the larger of the two spans the row, the other in proportion.
      const scale = BAR_SPAN / Math.max(e.meter, e.minimum);
      expect(meterWidth, e.label).toBeCloseTo(e.meter * scale, 0);
      expect(minimumWidth, e.label).toBeCloseTo(e.minimum * scale, 0);
    }
    // The amortized trims are the one row where the meter is well above the minimum: visibly so.
    const [trimMeter, trimMinimum] = widths(row(p, 'cost-row', 'RCU of trims, amortized'));
    const trims = costFigure(costInName[4][2]);
    expect(trimMeter! / trimMinimum!).toBeCloseTo(trims.meter / trims.minimum, 2);
  });

  it('is the committed bench/results/latest.svg (regenerate with npm run bench:chart)', () => {
    expect(readFileSync(new URL('../../bench/results/latest.svg', import.meta.url), 'utf8')).toBe(svg);
  });
});

describe('chartSvg refuses figures it cannot draw', () => {
  const without = (metric: string): BenchResults => ({ ...results, figures: results.figures.filter((f) => f.metric !== metric) });

  it('throws, naming the figure, when any charted metric is renamed or missing', () => {
    expect(everyChartedMetric.length).toBeGreaterThan(20);
    for (const metric of everyChartedMetric) {
      figure(metric); // present in the real results
      expect(() => chartSvg(without(metric)), metric).toThrow(ChartFigureError);
    }
    const renamed: BenchResults = {
      ...results,
      figures: results.figures.map((f) => (f.metric === 'page 250 handler alone p50' ? { ...f, metric: 'page 250 handler p50' } : f)),
    };
    expect(() => chartSvg(renamed)).toThrow(/missing figure for "page 250 · handler alone p50"/);
  });

  it('lists every problem at once', () => {
    const broken = without('page 1 handler alone p50');
    const error = catchError(() => chartSvg({ ...broken, figures: broken.figures.filter((f) => f.metric !== dollarsMinimum) }));
    expect(error).toBeInstanceOf(ChartFigureError);
    expect((error as ChartFigureError).problems).toEqual([
      expect.stringContaining('"page 1 · handler alone p50"'),
      expect.stringContaining('"$ per million posts, 200 followers (minimum)"'),
    ]);
  });

  it('throws when a matcher finds two figures, or a figure without a value (a failed scenario saves null)', () => {
    const twice: BenchResults = { ...results, figures: [...results.figures, { ...figure('page 1 handler alone p50'), value: 99 }] };
    expect(() => chartSvg(twice)).toThrow(/ambiguous figure for "page 1 · handler alone p50"/);
    const noValue: BenchResults = {
      ...results,
      figures: results.figures.map((f) => (f.metric === dollarsMeter ? { ...f, value: null as unknown as number } : f)),
    };
    expect(() => chartSvg(noValue)).toThrow(/no value for "\$ per million posts, 200 followers \(meter\)"/);
    expect(() => chartSvg({} as BenchResults)).toThrow(/no figures array/);
  });

  it('writeChartBeside removes a stale chart instead of leaving it beside new figures', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-chart-'));
    const json = join(dir, 'latest.json');
    writeFileSync(json, JSON.stringify(results));
    expect(writeChartBeside(json)).toBe(join(dir, 'latest.svg'));
    expect(readFileSync(join(dir, 'latest.svg'), 'utf8')).toBe(svg);
    writeFileSync(json, JSON.stringify(without(dollarsRatio)));
    expect(() => writeChartBeside(json)).toThrow(ChartFigureError);
    expect(existsSync(join(dir, 'latest.svg'))).toBe(false);
  });
});

describe('chartSvg escapes text', () => {
  it('keeps markup in recorded text as text', () => {
    const cpu = `<script>alert("x")</script> & 'co' \u0007`;
    const doc = parse(chartSvg({ ...results, machine: { ...results.machine, cpu } }));
    expect(all(doc, 'script')).toHaveLength(0);
    expect(byClass(doc, 'text', 'machine')[0]?.textContent).toContain(`<script>alert("x")</script> & 'co' `);
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
