/**
 * The ranking language's parser: a recursive descent over the tokens, lowest precedence first —
 * comparison (one, not chained) < `+ -` < `* /` < unary `-` < number, name, call, `( … )`.
 * It bounds the tree's size and depth as it builds it, so a hostile expression costs at most
 * EXPRESSION_LIMITS to parse and to evaluate.
 */
import { EXPRESSION_LIMITS, ExpressionError } from './expression-errors.js';
import { type Token, tokenize } from './expression-tokens.js';

export type BinaryOp = '+' | '-' | '*' | '/' | '<' | '<=' | '>' | '>=' | '==' | '!=';

export type Expr =
  | { readonly kind: 'number'; readonly value: number; readonly column: number }
  | { readonly kind: 'var'; readonly name: string; readonly column: number }
  | { readonly kind: 'neg'; readonly arg: Expr; readonly column: number }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr; readonly column: number }
  | { readonly kind: 'call'; readonly fn: string; readonly args: readonly Expr[]; readonly column: number };

const COMPARISONS = new Set(['<', '<=', '>', '>=', '==', '!=']);

export function parseExpression(source: string): Expr {
  const tokens = tokenize(source);
  let at = 0;
  let nodes = 0;
  const peek = (): Token => tokens[at]!;
  const isOp = (t: Token, ...ops: string[]): t is Extract<Token, { kind: 'op' }> => t.kind === 'op' && ops.includes(t.value);
  const node = <E extends Expr>(e: E, depth: number): E => {
    nodes++;
    if (nodes > EXPRESSION_LIMITS.maxNodes) throw new ExpressionError(e.column, `the expression has more than ${EXPRESSION_LIMITS.maxNodes} parts`);
    if (depth > EXPRESSION_LIMITS.maxDepth) throw new ExpressionError(e.column, `the expression nests deeper than ${EXPRESSION_LIMITS.maxDepth}`);
    return e;
  };
  const describe = (t: Token): string => (t.kind === 'end' ? 'the end of the expression' : `${JSON.stringify(String(t.value))}`);
  const expect = (op: string): void => {
    const t = peek();
    if (!isOp(t, op)) throw new ExpressionError(t.column, `expected "${op}", found ${describe(t)}`);
    at++;
  };

  function comparison(depth: number): Expr {
    const left = additive(depth + 1);
    const t = peek();
    if (t.kind === 'op' && COMPARISONS.has(t.value)) {
      at++;
      const right = additive(depth + 1);
      const after = peek();
      if (after.kind === 'op' && COMPARISONS.has(after.value)) throw new ExpressionError(after.column, 'comparisons do not chain: use parentheses');
      return node({ kind: 'binary', op: t.value as BinaryOp, left, right, column: t.column }, depth);
    }
    return left;
  }
  function additive(depth: number): Expr {
    let left = multiplicative(depth + 1);
    for (let t = peek(); isOp(t, '+', '-'); t = peek()) {
      at++;
      left = node({ kind: 'binary', op: t.value as BinaryOp, left, right: multiplicative(depth + 1), column: t.column }, depth);
    }
    return left;
  }
  function multiplicative(depth: number): Expr {
    let left = unary(depth + 1);
    for (let t = peek(); isOp(t, '*', '/'); t = peek()) {
      at++;
      left = node({ kind: 'binary', op: t.value as BinaryOp, left, right: unary(depth + 1), column: t.column }, depth);
    }
    return left;
  }
  function unary(depth: number): Expr {
    const t = peek();
    if (isOp(t, '-')) {
      at++;
      return node({ kind: 'neg', arg: unary(depth + 1), column: t.column }, depth);
    }
    return primary(depth);
  }
  function primary(depth: number): Expr {
    const t = peek();
    if (depth > EXPRESSION_LIMITS.maxDepth) throw new ExpressionError(t.column, `the expression nests deeper than ${EXPRESSION_LIMITS.maxDepth}`);
    if (t.kind === 'number') {
      at++;
      return node({ kind: 'number', value: t.value, column: t.column }, depth);
    }
    if (t.kind === 'name') {
      at++;
      if (!isOp(peek(), '(')) return node({ kind: 'var', name: t.value, column: t.column }, depth);
      at++;
      const args: Expr[] = [];
      if (!isOp(peek(), ')')) {
        args.push(comparison(depth + 1));
        while (isOp(peek(), ',')) {
          at++;
          args.push(comparison(depth + 1));
        }
      }
      expect(')');
      return node({ kind: 'call', fn: t.value, args, column: t.column }, depth);
    }
    if (isOp(t, '(')) {
      at++;
      const inner = comparison(depth + 1);
      expect(')');
      return inner;
    }
    throw new ExpressionError(t.column, `expected a number, a name or "(", found ${describe(t)}`);
  }

  const tree = comparison(0);
  const last = peek();
  if (last.kind !== 'end') throw new ExpressionError(last.column, `unexpected ${describe(last)}`);
  return tree;
}
