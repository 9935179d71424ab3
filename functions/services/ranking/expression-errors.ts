/**
 * A ranking expression that does not parse or check: `column` is 1-based, counted in the
 * expression's characters, so an editor (and the 400 the PUT answers) can point at it.
 */
export class ExpressionError extends Error {
  constructor(
    readonly column: number,
    readonly reason: string,
  ) {
    super(`column ${column}: ${reason}`);
    this.name = 'ExpressionError';
  }
}

/** Bounds that keep a stored expression's parse and per-candidate cost small and fixed. */
export const EXPRESSION_LIMITS = {
  /** Characters in the expression. */
  maxLength: 500,
  /** Nodes of the parsed tree: each candidate's evaluation visits each once. */
  maxNodes: 100,
  /** Nesting of parentheses, calls and operators: the parser and evaluator recurse this deep. */
  maxDepth: 20,
} as const;
