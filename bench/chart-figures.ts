/**
 * Which figures the chart draws, each by a matcher on its metric that must find exactly one finite
 * figure, else `ChartFigureError` lists every miss at once: the chart never silently loses a bar.
 * Page depths and follower counts are in the matchers so that a bench change cannot mislabel them.
 */
import type { Figure } from './report.js';

/** ours: what tickfeed does; tail: its p99; baseline: raw DynamoDB doing the same work. */
export type BarKind = 'ours' | 'tail' | 'baseline';
type Spec = readonly [label: string, metric: RegExp];
type BarSpec = readonly [label: string, metric: RegExp, kind: BarKind];

export const fanoutBars: readonly BarSpec[] = [
  ['ours: worker, first copy write → last', /^worker copies\/s, first copy write → last copy \(p50\)$/, 'ours'],
  ['ours: 201 → last copy (adds stream, outbox, queue)', /^ours copies\/s, 201 → last copy \(p50\)$/, 'ours'],
  ['raw BatchWriteItem, 8 in flight', /^raw BatchWriteItem copies\/s \(8 in flight, same item size, p50\)$/, 'baseline'],
  ['raw BatchWriteItem, 16 in flight', /^raw BatchWriteItem copies\/s \(16 in flight, same item size, p50\)$/, 'baseline'],
];
export const fanoutNotes: readonly Spec[] = [
  ['worker / raw (the faster)', /^fan-out rate: worker copies\/s \(first copy write → last\) \/ raw /],
  ['201 → last copy / raw (the faster)', /^end to end: 201 → last copy \/ raw \(the faster\)$/],
];
export const pagingBars: readonly BarSpec[] = [1, 250].flatMap((page) => [
  [`page ${page} · GET /feed p50 (HTTP API)`, new RegExp(`^page ${page} GET /feed p50 \\(HTTP API\\)$`), 'ours'] as const,
  [`page ${page} · GET /feed p99 (HTTP API)`, new RegExp(`^page ${page} GET /feed p99 \\(HTTP API\\)$`), 'tail'] as const,
  [`page ${page} · handler alone p50`, new RegExp(`^page ${page} handler alone p50$`), 'ours'] as const,
  [`page ${page} · raw Query p50`, new RegExp(`^page ${page} raw Query p50 \\(Limit \\d+\\)$`), 'baseline'] as const,
]);
export const pagingNotes: readonly Spec[] = [
  ['page 250 / page 1 (p50, HTTP API)', /^page 250 \/ page 1 \(p50, HTTP API\)$/],
  ['page 1 handler / raw Query (p50)', /^page 1 handler \/ raw Query \(p50\)$/],
  ['page 250 handler / raw Query (p50)', /^page 250 handler \/ raw Query \(p50\)$/],
];

/** "…: meter 1.5 vs rule minimum 1.5" at the end of a cost figure's name (bench/scenarios/cost/figures.ts `ratioFigure`). */
const inName = (prefix: string) => new RegExp(`^${prefix}: meter \\$?(?<meter>[\\d.]+) vs rule minimum \\$?(?<minimum>[\\d.]+)$`);
/** A cost row, meter vs pricing-rule minimum: one figure whose name carries both numbers, or three (meter, minimum, ratio). */
export type CostSpec = { readonly label: string; readonly unit: string } & (
  { readonly metric: RegExp } | { readonly meter: RegExp; readonly minimum: RegExp; readonly ratio: RegExp }
);
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
  { label: '$ per million posts, 200 followers, full feeds', unit: '$', metric: inName(String.raw`\$ per million posts at 200 followers with full feeds .*`) },
];

export class ChartFigureError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`bench chart: ${problems.length} figure(s) cannot be drawn:\n- ${problems.join('\n- ')}`);
    this.name = 'ChartFigureError';
  }
}

export interface Picked {
  readonly figure: Figure;
  readonly match: RegExpMatchArray;
}

/** Looks figures up, collecting problems instead of throwing at the first; `done()` throws them all. */
export class FigurePicker {
  private readonly problems: string[] = [];

  constructor(private readonly figures: readonly Figure[]) {}

  pick(label: string, metric: RegExp): Picked | undefined {
    const hits = this.figures.flatMap((figure) => (metric.test(figure.metric) ? [{ figure, match: figure.metric.match(metric)! }] : []));
    if (hits.length === 0) return this.problem(`missing figure for "${label}": no metric matches ${metric}`);
    if (hits.length > 1)
      return this.problem(`ambiguous figure for "${label}": ${metric} matches ${hits.map((h) => JSON.stringify(h.figure.metric)).join(', ')}`);
    // A failed figure's NaN is saved as null in the JSON.
    if (!Number.isFinite(hits[0]!.figure.value))
      return this.problem(`no value for "${label}": ${JSON.stringify(hits[0]!.figure.metric)} is ${hits[0]!.figure.value}`);
    return hits[0];
  }

  /** A number a picked figure's metric name carries, e.g. the meter in "meter 2 vs rule minimum 2". */
  group(label: string, picked: Picked, name: string): number | undefined {
    const value = Number(picked.match.groups?.[name]);
    return Number.isFinite(value) ? value : this.problem(`no "${name}" number in the metric of "${label}": ${JSON.stringify(picked.figure.metric)}`);
  }

  done(): void {
    if (this.problems.length) throw new ChartFigureError(this.problems);
  }

  private problem(text: string): undefined {
    this.problems.push(text);
    return undefined;
  }
}
