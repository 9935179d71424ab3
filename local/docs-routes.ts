/**
 * The API route table in docs/api.md, generated from the route list (lib/defs/routes.ts) and the
 * schema table (functions/http/operations.ts) — the same sources the edge validates with
 * and GET /openapi.json is built from — and the rate-class table in docs/security.md, from the
 * same route list and the default limits (lib/defs/rate-limits.ts). `npm run docs`
 * rewrites both (local/docs.ts lists the sections).
 */
import { operations } from '../functions/http/operations.js';
import { DEFAULT_RATE_LIMITS, parseRateLimits, RATE_CLASSES } from '../lib/defs/rate-limits.js';
import { routes } from '../lib/defs/routes.js';
import type { DocSection } from './docs-markers.js';

/** The markdown table: one row per route, in the route list's order. */
export function routeTable(): string {
  const rows = routes.map((r) => {
    const op = operations[r.id];
    const who = !r.auth ? 'public' : r.scopes?.length ? `admin (\`${r.scopes.join('`, `')}\`)` : 'token';
    const statuses = Object.keys(op.responses).join(', ');
    return `| ${r.method} | \`${r.path}\` | ${who} | ${statuses} | ${op.summary.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`;
  });
  return ['| method | path | caller | success | what |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** What a limit allows after its burst, in words: "one every 3 s", "one a second", "10 a second". */
function refill(burst: number, periodMs: number): string {
  const everyMs = periodMs / burst;
  if (everyMs === 1000) return 'one a second';
  return everyMs > 1000 ? `one every ${everyMs / 1000} s` : `${Math.round(1000 / everyMs)} a second`;
}

/** The markdown table: one row per rate class, its routes (every GET said so when that is what it is), its default. */
export function rateClassTable(): string {
  const limits = parseRateLimits(DEFAULT_RATE_LIMITS)!;
  const defaults = Object.fromEntries(DEFAULT_RATE_LIMITS.split(',').map((p) => p.split('=') as [string, string]));
  const limited = routes.filter((r) => r.rate !== undefined);
  const rows = RATE_CLASSES.map((cls) => {
    const mine = limited.filter((r) => r.rate === cls);
    const everyGet = mine.every((r) => r.method === 'GET') && limited.filter((r) => r.method === 'GET').every((r) => r.rate === cls);
    const which = everyGet ? 'every `GET` with a caller' : mine.map((r) => `\`${r.method} ${r.path}\``).join(', ');
    const { burst, periodMs } = limits[cls];
    return `| \`${cls}\` | ${which} | \`${defaults[cls]}\` | ${burst} at once, then ${refill(burst, periodMs)} |`;
  });
  return ['| class | routes | default (`burst/period`) | what that allows |', '|---|---|---|---|', ...rows].join('\n');
}

/** The route table of docs/api.md and the rate-class table of docs/security.md. */
export const routeSections: readonly DocSection[] = [
  { page: 'docs/api.md', name: 'routes', body: routeTable },
  { page: 'docs/security.md', name: 'rate-classes', body: rateClassTable },
];
