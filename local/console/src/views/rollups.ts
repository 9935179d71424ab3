/**
 * Charts of GET /rollups/{name} (admin scope: the session's admin client). The form is a plain GET
 * form, so every chart is a link (`&series=post.count&granularity=hour&from=…&to=…`, times in
 * UTC). Points are sparse: a count or sum interval without data is drawn as 0, a min or max one
 * as a gap (it has no value). Drawn with uPlot.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dataOf } from '../api.js';
import { h, replace } from '../dom.js';
import type { ViewRenderer } from './context.js';

const GRANULARITIES = ['minute', 'hour', 'day'] as const;
type Granularity = (typeof GRANULARITIES)[number];
const STEP_SECONDS: Record<Granularity, number> = { minute: 60, hour: 3600, day: 86400 };
/** What the API reads when `from` is absent: the 60 intervals up to `to`. */
const DEFAULT_INTERVALS = 60;
export const SERIES_COLOR = '#2563eb';

export const renderRollups: ViewRenderer = async ({ session, place, config }, root) => {
  const params = place.params;
  const series = params.get('series') || config.series[0] || 'post.count';
  const asked = params.get('granularity') ?? 'minute';
  const granularity: Granularity = (GRANULARITIES as readonly string[]).includes(asked) ? (asked as Granularity) : 'minute';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';

  const form = h(
    'form',
    { method: 'get', action: import.meta.env.BASE_URL, class: 'rollup-form', 'data-testid': 'rollup-form' },
    h('input', { type: 'hidden', name: 'user', value: session.user }),
    h('input', { type: 'hidden', name: 'view', value: 'rollups' }),
    h('label', {}, 'Series ', h('input', { name: 'series', value: series, list: 'series-names', required: true, size: 28 })),
    h('datalist', { id: 'series-names' }, ...config.series.map((name) => h('option', { value: name }))),
    h(
      'label',
      {},
      'Granularity ',
      h('select', { name: 'granularity' }, ...GRANULARITIES.map((g) => h('option', { value: g, selected: g === granularity }, g))),
    ),
    h('label', {}, 'From (UTC) ', h('input', { type: 'datetime-local', name: 'from', value: from })),
    h('label', {}, 'To (UTC) ', h('input', { type: 'datetime-local', name: 'to', value: to })),
    h('button', { type: 'submit', class: 'primary' }, 'Draw'),
  );
  const chart = h('div', { class: 'chart', 'data-testid': 'chart' });
  const summary = h('p', { 'data-testid': 'rollup-summary' });
  replace(root, h('h1', {}, 'Rollups'), form, summary, chart);

  const query = { granularity, ...(from ? { from: utc(from) } : {}), ...(to ? { to: utc(to) } : {}) };
  const result = await dataOf(`GET /rollups/${series}`, session.admin.GET('/rollups/{name}', { params: { path: { name: series }, query } }));
  const points = result.points;
  const values = points.map((p) => p.value);
  const additive = series.endsWith('.count') || series.endsWith('.sum');
  replace(
    summary,
    `${points.length} intervals with data`,
    points.length ? ` · ${additive ? `total ${values.reduce((a, b) => a + b, 0)} · ` : ''}min ${Math.min(...values)} · max ${Math.max(...values)}` : '',
  );
  chart.dataset.points = String(points.length);

  const step = STEP_SECONDS[granularity];
  const toSec = Math.ceil((to ? Date.parse(utc(to)) : Date.now()) / 1000 / step) * step;
  const fromSec = Math.floor((from ? Date.parse(utc(from)) : toSec * 1000 - DEFAULT_INTERVALS * step * 1000) / 1000 / step) * step;
  const [xs, ys] = grid(points, fromSec, toSec, step, additive ? 0 : null);
  const width = Math.max(320, chart.clientWidth || 800);
  new uPlot(
    {
      width,
      height: 320,
      scales: { x: { time: true } },
      series: [
        { label: 'UTC' },
        { label: series, stroke: SERIES_COLOR, width: 2, fill: 'rgba(37, 99, 235, 0.12)', points: { show: true, size: 5 }, spanGaps: false },
      ],
      // UTC, 24-hour: the same clock as the form and the API's `t`.
      axes: [{ values: (_u, splits) => splits.map((t) => axisLabel(t, granularity)) }, { size: 60 }],
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    },
    [xs, ys],
    chart,
  );
};

/** Every interval start from `fromSec` to `toSec` (and any point outside), with the point's value or `missing`. */
function grid(points: { t: string; value: number }[], fromSec: number, toSec: number, step: number, missing: number | null) {
  const byT = new Map(points.map((p) => [Date.parse(p.t) / 1000, p.value]));
  const times = new Set<number>(byT.keys());
  for (let t = fromSec; t < toSec; t += step) times.add(t);
  const xs = [...times].sort((a, b) => a - b);
  return [xs, xs.map((t) => byT.get(t) ?? missing)] as const;
}

function axisLabel(seconds: number, granularity: Granularity): string {
  const iso = new Date(seconds * 1000).toISOString();
  return granularity === 'day' ? iso.slice(0, 10) : iso.slice(11, 16);
}

/** A datetime-local value (`2026-11-23T10:00`), read as UTC, as RFC 3339. */
const utc = (local: string) => `${local.length === 16 ? `${local}:00` : local}Z`;
