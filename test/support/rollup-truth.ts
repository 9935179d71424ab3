/**
 * Ground truth for rollup tests, computed from the activities a test posted, and a reader of the
 * API's answer in the same shape (`{ [t]: value }`).
 */
import type { ActivityInput } from './seed-originals.js';
import { ADMIN, api } from './api.js';
import { uid } from './ids.js';

export type Points = Record<string, number>;
const G = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
export type Granularity = keyof typeof G;

/** Expected points of a series (`verb.count` or `verb.attr.func`) over `activities`. */
export function truth(activities: readonly ActivityInput[], series: string, granularity: Granularity = 'minute'): Points {
  const parts = series.split('.');
  const func = parts.at(-1)!;
  const verb = func === 'count' ? parts.slice(0, -1).join('.') : parts.slice(0, -2).join('.');
  const attr = parts.at(-2)!;
  const points: Points = {};
  for (const a of activities) {
    if (a.verb !== verb) continue;
    const v = func === 'count' ? 1 : a.attributes?.[attr];
    if (typeof v !== 'number') continue;
    const t = new Date(Math.floor(a.timeMs / G[granularity]) * G[granularity]).toISOString();
    const have = points[t];
    points[t] = have === undefined ? v : func === 'min' ? Math.min(have, v) : func === 'max' ? Math.max(have, v) : have + v;
  }
  return points;
}

/** Combine minute points into coarser ones, the way the API should. */
export function coarsen(points: Points, series: string, granularity: Granularity): Points {
  const func = series.split('.').at(-1)!;
  const out: Points = {};
  for (const [t, v] of Object.entries(points)) {
    const key = new Date(Math.floor(Date.parse(t) / G[granularity]) * G[granularity]).toISOString();
    const have = out[key];
    out[key] = have === undefined ? v : func === 'min' ? Math.min(have, v) : func === 'max' ? Math.max(have, v) : have + v;
  }
  return out;
}

const reader = uid('reader');

/** GET /rollups/{series} over [fromMs, toMs) as `{ t: value }`, as the backend (admin scope) reads it. */
export async function readSeries(series: string, fromMs: number, toMs: number, granularity: Granularity = 'minute'): Promise<Points> {
  const q = new URLSearchParams({ from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), granularity });
  const res = await api<{ points: { t: string; value: number }[] }>('GET', `/rollups/${encodeURIComponent(series)}?${q.toString()}`, {
    as: reader,
    scope: ADMIN,
  });
  if (res.status !== 200) throw new Error(`GET /rollups/${series}: ${res.status} ${JSON.stringify(res.body)}`);
  return Object.fromEntries(res.body.points.map((p) => [p.t, p.value]));
}

export const sumOf = (points: Points) => Object.values(points).reduce((s, v) => s + v, 0);
