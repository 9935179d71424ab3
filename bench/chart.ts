/**
 * `chartSvg(results)`: the bench's figures (bench/results/latest.json) as one standalone SVG of
 * three panels — fan-out copies/s vs raw BatchWriteItem, page latency at page 1 vs page 250 vs a raw
 * Query, and consumed capacity vs the pricing minimum. Pure: same JSON, same bytes. Which figures
 * it draws is the table in bench/chart-figures.ts; a figure it cannot find throws ChartFigureError.
 *
 * @example writeFileSync('latest.svg', chartSvg(JSON.parse(readFileSync('latest.json', 'utf8'))))
 */
import {
  type BarSpec,
  type CostSpec,
  costRows,
  fanoutBars,
  fanoutNotes,
  FigurePicker,
  type NoteSpec,
  pagingBars,
  pagingNotes,
} from './chart-figures.js';
import { type Bar, barPanel, type CostRow, costPanel, FONT_SIZE, type Note, WIDTH } from './chart-panels.js';
import { colors, element, escapeXml, text } from './chart-svg.js';
import type { Figure } from './report.js';

/** What bench/report.ts `save` writes; only `figures` is required. */
export interface BenchResults {
  readonly machine?: { readonly cpu?: string; readonly cores?: number; readonly node?: string; readonly date?: string };
  readonly figures: readonly Figure[];
}

const TITLE = 'tickfeed benchmark: fan-out rate, page latency by depth, cost vs the pricing minimum';

export function chartSvg(results: BenchResults): string {
  if (!Array.isArray(results?.figures)) throw new TypeError('bench chart: results have no figures array');
  const picker = new FigurePicker(results.figures);
  const bars = (specs: readonly BarSpec[]) => specs.flatMap((s) => pickBar(picker, s));
  const notes = (specs: readonly NoteSpec[]) => specs.flatMap((s) => pickNote(picker, s));
  const fanout = { bars: bars(fanoutBars), notes: notes(fanoutNotes) };
  const paging = { bars: bars(pagingBars), notes: notes(pagingNotes) };
  const cost = costRows.flatMap((s) => pickCost(picker, s));
  picker.done(); // throws, listing every figure it could not find, before anything is drawn

  const subtitle = machineLine(results.machine);
  let top = 58;
  const panels: string[] = [];
  for (const draw of [
    (y: number) => barPanel({ id: 'fanout', title: 'Fan-out: copies/s into followers’ home feeds (p50 of a post’s fan-out)', notes: fanout.notes }, fanout.bars, y),
    (y: number) => barPanel({ id: 'paging', title: 'Reading: GET /feed latency at page 1 vs page 250 (ms)', notes: paging.notes }, paging.bars, y),
    (y: number) => costPanel({ id: 'cost', title: 'Cost: consumed capacity vs the pricing minimum (each row on its own scale from 0)', notes: [] }, cost, y),
  ]) {
    const panel = draw(top);
    panels.push(panel.svg);
    top += panel.height + 18;
  }
  const height = top;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" font-family="-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="${FONT_SIZE}">`,
    element('title', {}, escapeXml(TITLE)),
    element('desc', {}, escapeXml(`Figures from bench/results/latest.json. ${subtitle}`)),
    // Opaque, so the dark text stays readable on GitHub's dark theme.
    element('rect', { x: 0, y: 0, width: WIDTH, height, fill: '#ffffff' }),
    text(24, 26, 'tickfeed · npm run bench', { 'font-size': 18, 'font-weight': 'bold', fill: colors.text }),
    text(24, 44, subtitle, { fill: colors.muted, class: 'machine' }),
    ...panels,
    '</svg>',
    '',
  ].join('\n');
}

function pickBar(picker: FigurePicker, spec: BarSpec): Bar[] {
  const hit = picker.pick(spec.label, spec.metric);
  return hit ? [{ label: spec.label, value: hit.figure.value, unit: hit.figure.unit, kind: spec.kind }] : [];
}

function pickNote(picker: FigurePicker, spec: NoteSpec): Note[] {
  const hit = picker.pick(spec.label, spec.metric);
  if (!hit) return [];
  const { value, unit, target, met } = hit.figure;
  return [{ label: spec.label, value, unit, target, met }];
}

function pickCost(picker: FigurePicker, spec: CostSpec): CostRow[] {
  if ('metric' in spec) {
    const hit = picker.pick(spec.label, spec.metric);
    if (!hit) return [];
    const meter = picker.group(hit, 'meter');
    const minimum = picker.group(hit, 'minimum');
    if (meter === undefined || minimum === undefined) return [];
    return [{ label: spec.label, unit: spec.unit, meter, minimum, target: hit.figure.target, met: hit.figure.met }];
  }
  const meter = picker.pick(`${spec.label} (meter)`, spec.meter);
  const minimum = picker.pick(`${spec.label} (minimum)`, spec.minimum);
  const ratio = picker.pick(`${spec.label} (meter / minimum)`, spec.ratio);
  if (!meter || !minimum || !ratio) return [];
  return [{ label: spec.label, unit: spec.unit, meter: meter.figure.value, minimum: minimum.figure.value, target: ratio.figure.target, met: ratio.figure.met }];
}

function machineLine(machine: BenchResults['machine']): string {
  if (!machine) return 'machine not recorded';
  const parts = [machine.date, machine.cores !== undefined ? `${machine.cores} cores` : undefined, machine.cpu, machine.node && `Node ${machine.node}`];
  return `${parts.filter(Boolean).join(' · ')} · DynamoDB Local, in-process stack; ratios measured side by side in one run`;
}
