/**
 * Which bench figures the chart (bench/chart.ts) draws: one declarative table per panel, each entry
 * naming the figure by a matcher on its metric name. Every entry must match exactly one finite
 * figure; anything else (a metric renamed, dropped, duplicated, or a scenario that failed) throws
 * `ChartFigureError` listing every problem at once, so the chart never silently loses a bar.
 *
 * Page depths, concurrencies and follower counts are written into the matchers on purpose: when the
 * bench changes one, the chart's labels would be wrong, so it fails instead.
 */
import type { Figure } from './report.js';

/** ours: what tickfeed does; tail: its p99; baseline: raw DynamoDB doing the same work. */
export type BarKind = 'ours' | 'tail' | 'baseline';

export interface BarSpec {
  readonly label: string;
  readonly metric: RegExp;
  readonly kind: BarKind;
}

/** A ratio printed under a panel's title, with its target when the figure has one. */
export interface NoteSpec {
  readonly label: string;
  readonly metric: RegExp;
}

/**
 * A cost row: what the meter said vs the minimum DynamoDB's pricing rules allow for the same item
 * sizes. Either one figure whose name carries both numbers (named groups `meter` and `minimum`), or
 * two figures whose values are the meter and the minimum, and a third with their ratio's target.
 */
export type CostSpec = { readonly label: string; readonly unit: string } & (
  | { readonly metric: RegExp }
  | { readonly meter: RegExp; readonly minimum: RegExp; readonly ratio: RegExp }
);

export const fanoutBars: readonly BarSpec[] = [
  { label: 'ours: worker, first copy write → last', metric: /^worker copies\/s, first copy write → last copy \(p50\)$/, kind: 'ours' },
  { label: 'ours: 201 → last copy (adds stream, outbox, queue)', metric: /^ours copies\/s, 201 → last copy \(p50\)$/, kind: 'ours' },
  { label: 'raw BatchWriteItem, 8 in flight', metric: /^raw BatchWriteItem copies\/s \(8 in flight, same item size, p50\)$/, kind: 'baseline' },
  { label: 'raw BatchWriteItem, 16 in flight', metric: /^raw BatchWriteItem copies\/s \(16 in flight, same item size, p50\)$/, kind: 'baseline' },
];

export const fanoutNotes: readonly NoteSpec[] = [
  { label: 'worker / raw (the faster)', metric: /^fan-out rate: worker copies\/s \(first copy write → last\) \/ raw / },
  { label: '201 → last copy / raw (the faster)', metric: /^end to end: 201 → last copy \/ raw \(the faster\)$/ },
];

export const pagingBars: readonly BarSpec[] = [
  { label: 'page 1 · GET /feed p50 (HTTP API)', metric: /^page 1 GET \/feed p50 \(HTTP API\)$/, kind: 'ours' },
  { label: 'page 1 · GET /feed p99 (HTTP API)', metric: /^page 1 GET \/feed p99 \(HTTP API\)$/, kind: 'tail' },
  { label: 'page 1 · handler alone p50', metric: /^page 1 handler alone p50$/, kind: 'ours' },
  { label: 'page 1 · raw Query p50', metric: /^page 1 raw Query p50 \(Limit \d+\)$/, kind: 'baseline' },
  { label: 'page 250 · GET /feed p50 (HTTP API)', metric: /^page 250 GET \/feed p50 \(HTTP API\)$/, kind: 'ours' },
  { label: 'page 250 · GET /feed p99 (HTTP API)', metric: /^page 250 GET \/feed p99 \(HTTP API\)$/, kind: 'tail' },
  { label: 'page 250 · handler alone p50', metric: /^page 250 handler alone p50$/, kind: 'ours' },
  { label: 'page 250 · raw Query p50', metric: /^page 250 raw Query p50 \(Limit \d+\)$/, kind: 'baseline' },
];

export const pagingNotes: readonly NoteSpec[] = [
  { label: 'page 250 / page 1 (p50, HTTP API)', metric: /^page 250 \/ page 1 \(p50, HTTP API\)$/ },
  { label: 'page 1 handler / raw Query (p50)', metric: /^page 1 handler \/ raw Query \(p50\)$/ },
  { label: 'page 250 handler / raw Query (p50)', metric: /^page 250 handler \/ raw Query \(p50\)$/ },
];

/** "…: meter 1.5 vs rule minimum 1.5" at the end of a cost figure's name (cost.ts `ratioFigure`). */
const METER_VS_MIN = String.raw`: meter (?<meter>[\d.]+) vs rule minimum (?<minimum>[\d.]+)$`;
const inName = (prefix: string) => new RegExp(`^${prefix}${METER_VS_MIN}`);

export const costRows: readonly CostSpec[] = [
  { label: 'WCU per POST', unit: 'WCU', metric: inName(String.raw`WCU per post \(the POST request\)`) },
  { label: 'WCU per follower copy', unit: 'WCU', metric: inName(String.raw`WCU per follower copy \(fan-out, feed table\)`) },
  { label: 'RCU per first page (limit 20)', unit: 'RCU', metric: inName(String.raw`RCU per first page \(push-only reader, limit 20, head item present\)`) },
  { label: 'RCU per before page (limit 20)', unit: 'RCU', metric: inName(String.raw`RCU per before page right after a first page \(limit 20\)`) },
  { label: 'RCU of trims, amortized', unit: 'RCU', metric: inName(String.raw`RCU of trims amortized over .+ \(attempts where production starts them\)`) },
  {
    label: '$ per million posts, 200 followers',
    unit: '$',
    meter: /^\$ per million posts at 200 followers \(meter; /,
    minimum: /^\$ per million posts at 200 followers \(rule minimum\)$/,
    ratio: /^\$ per million posts at 200 followers: meter \/ rule minimum$/,
  },
  {
    label: '$ per million posts, 200 followers, full feeds',
    unit: '$',
    metric: /^\$ per million posts at 200 followers with full feeds .*: meter \$(?<meter>[\d.]+) vs rule minimum \$(?<minimum>[\d.]+)$/,
  },
];

export class ChartFigureError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`bench chart: ${problems.length} figure(s) cannot be drawn:\n- ${problems.join('\n- ')}`);
    this.name = 'ChartFigureError';
  }
}

export interface Picked {
  readonly label: string;
  readonly figure: Figure;
  readonly match: RegExpMatchArray;
}

/**
 * Looks figures up by matcher, collecting problems instead of throwing at the first, so one run
 * of the bench reports every renamed metric. Call `done()` once every lookup is made.
 */
export class FigurePicker {
  private readonly problems: string[] = [];

  constructor(private readonly figures: readonly Figure[]) {}

  pick(label: string, metric: RegExp): Picked | undefined {
    const hits = this.figures.flatMap((figure) => {
      const match = figure.metric.match(metric);
      return match ? [{ label, figure, match }] : [];
    });
    const [hit] = hits;
    if (!hit) return this.problem(`missing figure for "${label}": no metric matches ${metric}`);
    if (hits.length > 1) return this.problem(`ambiguous figure for "${label}": ${metric} matches ${hits.map((h) => JSON.stringify(h.figure.metric)).join(', ')}`);
    if (!isFiniteNumber(hit.figure.value)) return this.problem(`no value for "${label}": ${JSON.stringify(hit.figure.metric)} is ${hit.figure.value}`);
    return hit;
  }

  /** A number a picked figure's metric name carries, e.g. the meter in "meter 2 vs rule minimum 2". */
  group(picked: Picked, name: string): number | undefined {
    const value = Number(picked.match.groups?.[name]);
    if (isFiniteNumber(value)) return value;
    return this.problem(`no "${name}" number in the metric of "${picked.label}": ${JSON.stringify(picked.figure.metric)}`);
  }

  done(): void {
    if (this.problems.length) throw new ChartFigureError(this.problems);
  }

  private problem(text: string): undefined {
    this.problems.push(text);
    return undefined;
  }
}

function isFiniteNumber(value: unknown): value is number {
  // A failed figure's NaN is saved as null in the JSON.
  return typeof value === 'number' && Number.isFinite(value);
}
