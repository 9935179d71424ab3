/**
 * The ranking language's tokenizer: numbers, names (`reactions.like`, `attributes.boost`),
 * operators and parentheses. Each token keeps its 1-based column for errors.
 */
import { EXPRESSION_LIMITS, ExpressionError } from './expression-errors.js';

export type Token =
  | { readonly kind: 'number'; readonly value: number; readonly column: number }
  | { readonly kind: 'name'; readonly value: string; readonly column: number }
  | { readonly kind: 'op'; readonly value: string; readonly column: number }
  | { readonly kind: 'end'; readonly column: number };

const OPERATORS = ['<=', '>=', '==', '!=', '<', '>', '+', '-', '*', '/', '(', ')', ','] as const;
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
// Dotted names: a segment is a letter or `_` then letters, digits or `_`.
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/;

export function tokenize(source: string): Token[] {
  if (source.length > EXPRESSION_LIMITS.maxLength) {
    throw new ExpressionError(EXPRESSION_LIMITS.maxLength + 1, `the expression is longer than ${EXPRESSION_LIMITS.maxLength} characters`);
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const rest = source.slice(i);
    const column = i + 1;
    const num = NUMBER.exec(rest);
    if (num) {
      const value = Number(num[0]);
      if (!Number.isFinite(value)) throw new ExpressionError(column, `number ${num[0]} is out of range`);
      tokens.push({ kind: 'number', value, column });
      i += num[0].length;
      continue;
    }
    const name = NAME.exec(rest);
    if (name) {
      tokens.push({ kind: 'name', value: name[0], column });
      i += name[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (op === undefined) throw new ExpressionError(column, `unexpected character ${JSON.stringify(c)}`);
    tokens.push({ kind: 'op', value: op, column });
    i += op.length;
  }
  tokens.push({ kind: 'end', column: source.length + 1 });
  return tokens;
}
