/**
 * The ranking language's evaluator: a walk of a checked tree over one candidate's variables.
 * Comparisons are 1 or 0. The result is always a finite number (NaN → the lowest score,
 * ±Infinity → ±Number.MAX_VALUE), so a score always sorts and always fits in JSON.
 */
import type { Expr } from './expression-parse.js';

/** The values one candidate offers: every name the checked expression reads must be present. */
export type Variables = Readonly<Record<string, number>>;

/**
 * Decay of `value` past `offset` (default 0), 1 at or below it, `decay` (default 0.5) at
 * `offset + scale` — the shapes Elasticsearch and Stream name exp, linear and gauss.
 */
function decay(shape: 'exp' | 'linear' | 'gauss', [value, scale, offset = 0, d = 0.5]: readonly number[]): number {
  if (!(scale! > 0) || !(d > 0 && d < 1)) return Number.NaN;
  const x = Math.max(0, value! - offset) / scale!;
  if (shape === 'exp') return d ** x;
  if (shape === 'gauss') return d ** (x * x);
  return Math.max(0, 1 - (1 - d) * x);
}

const CALLS: Readonly<Record<string, (args: readonly number[]) => number>> = {
  ln: ([x]) => Math.log(x!),
  log: ([x, base]) => (base === undefined ? Math.log10(x!) : Math.log(x!) / Math.log(base)),
  min: (args) => Math.min(...args),
  max: (args) => Math.max(...args),
  decay_exp: (args) => decay('exp', args),
  decay_linear: (args) => decay('linear', args),
  decay_gauss: (args) => decay('gauss', args),
};

function value(e: Expr, vars: Variables): number {
  switch (e.kind) {
    case 'number':
      return e.value;
    case 'var':
      return vars[e.name] ?? 0;
    case 'neg':
      return -value(e.arg, vars);
    case 'call':
      return CALLS[e.fn]!(e.args.map((a) => value(a, vars)));
    case 'binary': {
      const l = value(e.left, vars);
      const r = value(e.right, vars);
      switch (e.op) {
        case '+':
          return l + r;
        case '-':
          return l - r;
        case '*':
          return l * r;
        case '/':
          return l / r;
        case '<':
          return l < r ? 1 : 0;
        case '<=':
          return l <= r ? 1 : 0;
        case '>':
          return l > r ? 1 : 0;
        case '>=':
          return l >= r ? 1 : 0;
        case '==':
          return l === r ? 1 : 0;
        case '!=':
          return l !== r ? 1 : 0;
      }
    }
  }
}

/** The score of one candidate: always finite. */
export function evaluateExpression(tree: Expr, vars: Variables): number {
  const v = value(tree, vars);
  if (Number.isNaN(v)) return -Number.MAX_VALUE;
  if (v === Number.POSITIVE_INFINITY) return Number.MAX_VALUE;
  if (v === Number.NEGATIVE_INFINITY) return -Number.MAX_VALUE;
  return v;
}
