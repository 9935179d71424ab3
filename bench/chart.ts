/**
 * The bench's figures as one SVG of three panels (fan-out vs raw BatchWriteItem, page latency vs a
 * raw Query, consumed capacity vs the pricing minimum), by Vega-Lite in Node without a canvas.
 *
 * @example await writeChartBeside('bench/results/latest.json') // writes latest.svg beside it
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { type BarKind, costRows, fanoutBars, fanoutNotes, FigurePicker, pagingBars, pagingNotes } from './chart-figures.js';
import type { Figure } from './report.js';

/** What bench/report.ts `save` writes; only `figures` is required. */
export interface BenchResults {
  readonly machine?: { readonly cpu?: string; readonly cores?: number; readonly node?: string; readonly date?: string };
  readonly figures: readonly Figure[];
}

const WIDTH = 440;
const kinds: Record<BarKind, { legend: string; color: string }> = {
  ours: { legend: 'tickfeed (p50)', color: '#2563eb' },
  tail: { legend: 'tickfeed (p99)', color: '#93c5fd' },
  baseline: { legend: 'raw DynamoDB, same work', color: '#9ca3af' },
};
const series = {
  meter: { legend: 'meter (ReturnConsumedCapacity)', color: '#2563eb' },
  minimum: { legend: 'pricing-rule minimum, same item sizes', color: '#9ca3af' },
};

const verdict = (f: { target?: string; met?: boolean }) => (f.target ? ` (target ${f.target}: ${f.met ? 'met ✓' : 'not met ✗'})` : '');
const amount = (value: number, unit: string) => (unit === '$' ? `$${value}` : unit === '×' ? `${value}×` : `${value} ${unit}`.trim());
/** Recorded text into the chart: no control characters (XML forbids them). */
const clean = (text: string) => text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

/** The Vega-Lite spec of the chart: the picked figures as data, so a test can read what is drawn. */
export function chartSpec(results: BenchResults): TopLevelSpec {
  if (!Array.isArray(results?.figures)) throw new TypeError('bench chart: results have no figures array');
  const picker = new FigurePicker(results.figures);
  const bars = (specs: typeof fanoutBars) =>
    specs.flatMap(([label, metric, kind]) => {
      const f = picker.pick(label, metric)?.figure;
      return f ? [{ label, value: f.value, shown: amount(f.value, f.unit), kind: kinds[kind].legend }] : [];
    });
  const notes = (specs: typeof fanoutNotes) =>
    specs.flatMap(([label, metric]) => {
      const f = picker.pick(label, metric)?.figure;
      return f ? [`${label}: ${amount(f.value, f.unit)}${verdict(f)}`] : [];
    });
  const fanout = barPanel('Fan-out: copies/s into followers’ home feeds (p50 of a post’s fan-out)', bars(fanoutBars), notes(fanoutNotes));
  const paging = barPanel('Reading: GET /feed latency at page 1 vs page 250 (ms)', bars(pagingBars), notes(pagingNotes));
  const cost = costRows.flatMap((spec) => {
    let row: { meter?: number; minimum?: number; ratio?: Figure } = {};
    if ('metric' in spec) {
      const hit = picker.pick(spec.label, spec.metric);
      if (hit) row = { meter: picker.group(spec.label, hit, 'meter'), minimum: picker.group(spec.label, hit, 'minimum'), ratio: hit.figure };
    } else {
      const [meter, minimum, ratio] = (['meter', 'minimum', 'meter / minimum'] as const).map((part) =>
        picker.pick(`${spec.label} (${part})`, spec[part === 'meter / minimum' ? 'ratio' : part]),
      );
      row = { meter: meter?.figure.value, minimum: minimum?.figure.value, ratio: ratio?.figure };
    }
    if (row.meter === undefined || row.minimum === undefined || !row.ratio) return [];
    const name = `${spec.label} — ${Number((row.meter / row.minimum).toFixed(3))}× min${verdict(row.ratio)}`;
    return (['meter', 'minimum'] as const).map((s) => ({ row: name, series: series[s].legend, value: row[s]!, shown: `${s} ${amount(row[s]!, spec.unit)}` }));
  });
  picker.done(); // throws, listing every figure it could not find, before anything is drawn
  const m = results.machine;
  const machine = m
    ? [m.date, m.cores !== undefined ? `${m.cores} cores` : undefined, m.cpu, m.node && `Node ${m.node}`].filter(Boolean).join(' · ')
    : 'machine not recorded';
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'tickfeed · npm run bench',
      subtitle: clean(`${machine} · DynamoDB Local, in-process stack; ratios measured side by side in one run`),
      anchor: 'start',
      fontSize: 18,
    },
    background: '#ffffff',
    config: { font: 'Helvetica, Arial, sans-serif', view: { stroke: null }, axis: { labelFontSize: 12 }, title: { subtitleColor: '#4b5563' } },
    resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
    vconcat: [
      fanout,
      paging,
      {
        title: { text: 'Cost: consumed capacity vs the pricing minimum (each row on its own scale from 0)', anchor: 'start' },
        data: { values: cost },
        facet: {
          row: {
            field: 'row',
            sort: [...new Set(cost.map((c) => c.row))],
            header: { title: null, labelAngle: 0, labelOrient: 'top', labelAnchor: 'start', labelFontSize: 12 },
          },
        },
        spec: { width: WIDTH, height: 30, encoding: encoding('series', series), layer: layers },
        resolve: { scale: { x: 'independent' } },
      },
    ],
  } as TopLevelSpec;
}

function barPanel(title: string, values: { kind: string }[], notes: string[]) {
  const used = Object.values(kinds).filter((k) => values.some((v) => v.kind === k.legend));
  return {
    title: { text: title, subtitle: notes, anchor: 'start' },
    data: { values },
    width: WIDTH,
    encoding: encoding('label', Object.fromEntries(used.map((k) => [k.legend, k]))),
    layer: layers,
  };
}

/** Bars along x from 0, one a row (in the data's order), coloured by `color` with its legend. */
function encoding(y: string, palette: Record<string, { legend: string; color: string }>) {
  const entries = Object.values(palette);
  return {
    y: { field: y, type: 'nominal', sort: null, title: null, axis: y === 'label' ? { labelLimit: 0 } : null },
    // No label limit: without a canvas, Vega estimates text widths generously and would cut labels.
    // Cost rows each have a scale of their own: an axis per row would only repeat "0 … max".
    x: { field: 'value', type: 'quantitative', title: null, scale: { zero: true }, axis: y === 'label' ? {} : null },
    color: {
      field: y === 'label' ? 'kind' : 'series',
      type: 'nominal',
      title: null,
      legend: { orient: 'top', labelLimit: 0 },
      scale: { domain: entries.map((e) => e.legend), range: entries.map((e) => e.color) },
    },
  };
}
const layers = [{ mark: 'bar' }, { mark: { type: 'text', align: 'left', dx: 4 }, encoding: { text: { field: 'shown' }, color: { value: '#111827' } } }];

/** The chart as SVG text. Pure: same JSON, same bytes. */
export async function chartSvg(results: BenchResults): Promise<string> {
  const view = new vega.View(vega.parse(compile(chartSpec(results)).spec), { renderer: 'none' });
  try {
    return `${await view.toSVG()}\n`;
  } finally {
    view.finalize();
  }
}

/**
 * Writes the chart of a saved results file next to it (<name>.json → <name>.svg) and returns the
 * SVG's path. When the chart cannot be drawn, the old SVG is removed before the error is rethrown,
 * so the docs never show a chart of an earlier run beside newer figures.
 */
export async function writeChartBeside(jsonFile: string): Promise<string> {
  if (!jsonFile.endsWith('.json')) throw new Error(`bench chart: expected a .json results file, got ${jsonFile}`);
  const svgFile = jsonFile.replace(/\.json$/, '.svg');
  try {
    writeFileSync(svgFile, await chartSvg(JSON.parse(readFileSync(jsonFile, 'utf8'))));
  } catch (error) {
    rmSync(svgFile, { force: true });
    throw error;
  }
  return svgFile;
}
