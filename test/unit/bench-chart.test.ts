import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser, type Element, onWarningStopParsing } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { type BenchResults, chartSpec, chartSvg, writeChartBeside } from '../../bench/chart.js';
import { ChartFigureError } from '../../bench/chart-figures.js';
import type { Figure } from '../../bench/report.js';

// The real results the README shows. The expectations below name figures by their exact metric in
// that JSON (not through the chart's own matchers), so a matcher that picks the wrong figure fails.
const latestJson = new URL('../../bench/results/latest.json', import.meta.url);
const results: BenchResults = JSON.parse(readFileSync(latestJson, 'utf8'));

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
  ['RCU of trims, amortized', 'RCU', 'RCU of trims amortized over 3 feeds × 4000 copies written through writeCopies (attempts where production starts them)'],
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

const all = (root: Element, tag: string): Element[] => Array.from(root.getElementsByTagName(tag));
/** Every text drawn: a multi-line title's lines are tspans of one text element. */
const texts = (root: Element) => [...all(root, 'text'), ...all(root, 'tspan')].map((t) => t.textContent);
const amount = (f: Figure) => (f.unit === '×' ? `${f.value}×` : `${f.value} ${f.unit}`);
const verdict = (f: Figure) => (f.target ? ` (target ${f.target}: ${f.met ? 'met ✓' : 'not met ✗'})` : '');

// The drawing is Vega-Lite's; what is ours is the data handed to it, read here from the spec.
interface Panel {
  title: { text: string; subtitle?: string[] };
  data: { values: { label?: string; row?: string; series?: string; kind?: string; value: number; shown: string }[] };
}
const spec = chartSpec(results) as unknown as { vconcat: Panel[] };
const [fanoutPanel, pagingPanel, costPanel] = spec.vconcat as [Panel, Panel, Panel];
const svg = await chartSvg(results);
const root = parse(svg);

describe('chartSvg on bench/results/latest.json', () => {
  it('is a well-formed standalone SVG that GitHub can show as an image', () => {
    expect(root.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(root.localName).toBe('svg');
    expect(root.getAttribute('viewBox')).toBe(`0 0 ${root.getAttribute('width')} ${root.getAttribute('height')}`);
    for (const tag of ['script', 'style', 'foreignObject', 'image', 'a', 'use']) expect(all(root, tag), tag).toHaveLength(0);
    for (const e of all(root, '*')) {
      for (const attr of Array.from(e.attributes)) expect(attr.name, `${e.localName} ${attr.name}`).not.toMatch(/^on|href$/i);
    }
    expect(svg).not.toMatch(/url\(|@import|@font-face/);
    expect(texts(root)).toContain('tickfeed · npm run bench');
  });

  it("draws each fan-out and paging figure as a labelled bar with its value, in the table's order", () => {
    for (const [panel, bars] of [
      [fanoutPanel, fanoutBars],
      [pagingPanel, pagingBars],
    ] as const) {
      const expected = bars.map(([label, metric]) => ({ label, value: figure(metric).value, shown: `${figure(metric).value} ${figure(metric).unit}` }));
      expect(panel.data.values.map(({ label, value, shown }) => ({ label, value, shown }))).toEqual(expected);
      for (const bar of expected) expect(texts(root), bar.label).toEqual(expect.arrayContaining([bar.label, bar.shown]));
    }
    expect(new Set(fanoutPanel.data.values.map((v) => v.kind))).toEqual(new Set(['tickfeed (p50)', 'raw DynamoDB, same work']));
  });

  it('keeps the page depths apart: page 250 bars carry the page 250 figures', () => {
    const deep = figure('page 250 GET /feed p99 (HTTP API)');
    const first = figure('page 1 GET /feed p99 (HTTP API)');
    expect(deep.value).not.toBe(first.value); // else this test could not tell them apart: rerun the bench
    const value = (label: string) => pagingPanel.data.values.find((v) => v.label === label)?.value;
    expect(value('page 250 · GET /feed p99 (HTTP API)')).toBe(deep.value);
    expect(value('page 1 · GET /feed p99 (HTTP API)')).toBe(first.value);
  });

  it('prints each ratio under its panel with its target and whether it was met', () => {
    for (const [id, label, metric] of notes) {
      const line = `${label}: ${amount(figure(metric))}${verdict(figure(metric))}`;
      expect((id === 'fanout' ? fanoutPanel : pagingPanel).title.subtitle, label).toContain(line);
      expect(texts(root)).toContain(line);
    }
  });

  it('draws each cost row as meter vs minimum with the numbers the figures carry, on a scale of its own', () => {
    const expected = [
      ...costInName.map(([label, unit, stem]) => ({ ...costFigure(stem), label, unit })),
      {
        ...figure(dollarsRatio),
        label: '$ per million posts, 200 followers',
        unit: '$',
        meter: figure(dollarsMeter).value,
        minimum: figure(dollarsMinimum).value,
      },
    ];
    expect(costPanel.data.values).toHaveLength(2 * expected.length);
    for (const e of expected) {
      const row = `${e.label} — ${Number((e.meter / e.minimum).toFixed(3))}× min${verdict(e)}`;
      const shown = (n: number) => (e.unit === '$' ? `$${n}` : `${n} ${e.unit}`);
      expect(
        costPanel.data.values.filter((v) => v.row === row).map((v) => [v.value, v.shown]),
        row,
      ).toEqual([
        [e.meter, `meter ${shown(e.meter)}`],
        [e.minimum, `minimum ${shown(e.minimum)}`],
      ]);
      expect(texts(root)).toEqual(expect.arrayContaining([row, `meter ${shown(e.meter)}`, `minimum ${shown(e.minimum)}`]));
    }
    expect((costPanel as unknown as { resolve: unknown }).resolve).toEqual({ scale: { x: 'independent' } });
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
      expect(() => chartSpec(without(metric)), metric).toThrow(ChartFigureError);
    }
    const renamed: BenchResults = {
      ...results,
      figures: results.figures.map((f) => (f.metric === 'page 250 handler alone p50' ? { ...f, metric: 'page 250 handler p50' } : f)),
    };
    expect(() => chartSpec(renamed)).toThrow(/missing figure for "page 250 · handler alone p50"/);
  });

  it('lists every problem at once', () => {
    const broken = without('page 1 handler alone p50');
    const error = catchError(() => chartSpec({ ...broken, figures: broken.figures.filter((f) => f.metric !== dollarsMinimum) }));
    expect(error).toBeInstanceOf(ChartFigureError);
    expect((error as ChartFigureError).problems).toEqual([
      expect.stringContaining('"page 1 · handler alone p50"'),
      expect.stringContaining('"$ per million posts, 200 followers (minimum)"'),
    ]);
  });

  it('throws when a matcher finds two figures, or a figure without a value (a failed scenario saves null)', () => {
    const twice: BenchResults = { ...results, figures: [...results.figures, { ...figure('page 1 handler alone p50'), value: 99 }] };
    expect(() => chartSpec(twice)).toThrow(/ambiguous figure for "page 1 · handler alone p50"/);
    const noValue: BenchResults = {
      ...results,
      figures: results.figures.map((f) => (f.metric === dollarsMeter ? { ...f, value: null as unknown as number } : f)),
    };
    expect(() => chartSpec(noValue)).toThrow(/no value for "\$ per million posts, 200 followers \(meter\)"/);
    expect(() => chartSpec({} as BenchResults)).toThrow(/no figures array/);
  });

  it('writeChartBeside removes a stale chart instead of leaving it beside new figures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-chart-'));
    const json = join(dir, 'latest.json');
    writeFileSync(json, JSON.stringify(results));
    expect(await writeChartBeside(json)).toBe(join(dir, 'latest.svg'));
    expect(readFileSync(join(dir, 'latest.svg'), 'utf8')).toBe(svg);
    writeFileSync(json, JSON.stringify(without(dollarsRatio)));
    await expect(writeChartBeside(json)).rejects.toThrow(ChartFigureError);
    expect(existsSync(join(dir, 'latest.svg'))).toBe(false);
  });
});

describe('chartSvg escapes text', () => {
  it('keeps markup in recorded text as text', async () => {
    const cpu = `<script>alert("x")</script> & 'co' \u0007`;
    const doc = parse(await chartSvg({ ...results, machine: { ...results.machine, cpu } }));
    expect(all(doc, 'script')).toHaveLength(0);
    expect(texts(doc).find((t) => t?.includes('cores'))).toContain(`<script>alert("x")</script> & 'co' `);
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
