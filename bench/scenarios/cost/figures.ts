/** What the cost measurements share: the scenario's name, its follower count and how a figure says where the units went. */
import type { CapacityTotals } from '../../capacity.js';
import { atMost, type Figure, figureOf } from '../../report.js';
import { round } from '../../stats.js';

export const S = 'cost';
export const FOLLOWERS = 200;

export const middle = <T>(xs: T[]): T => xs[Math.floor(xs.length / 2)]!;

/** Where the units went, per table and per kind of call, e.g. "feed 2 W 0 R; copy writes ×1 (1 items): 1 W 0 R". */
export function where(t: CapacityTotals, per = 1): string {
  const tables = Object.entries(t.tables)
    .map(([name, u]) => `${name.replace(/^tickfeed-/, '')} ${round(u.write / per, 3)} W ${round(u.read / per, 3)} R`)
    .join(', ');
  const tags = Object.entries(t.tags)
    .map(
      ([tag, u]) =>
        `${tag} ×${u.calls}${u.items ? ` (${u.items} items)` : ''}${u.scanned ? ` (${u.scanned} read)` : ''}: ${round(u.write, 2)} W ${round(u.read, 2)} R`,
    )
    .join('; ');
  return per === 1 ? `${tables}; ${tags}` : `per follower: ${tables}; per post: ${tags}`;
}

/** "<metric>: meter M vs rule minimum N" as M ÷ N against a target of `target` × the minimum. */
export function ratioFigure(f: {
  metric: string;
  measured: number;
  minimum: number;
  target: number;
  sizes: string;
  sample?: CapacityTotals;
  per?: number;
}): Figure {
  const ratio = f.measured / f.minimum;
  return figureOf(S)(`${f.metric}: meter ${round(f.measured, 3)} vs rule minimum ${round(f.minimum, 3)}`, round(ratio, 3), '× min', {
    ...atMost(ratio, f.target, '× min'),
    note: `${f.sizes}${f.sample ? `; ${where(f.sample, f.per)}` : ''}`,
  });
}
