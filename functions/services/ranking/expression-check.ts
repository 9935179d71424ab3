/**
 * The ranking language's checker: every name is a known variable and every call a known function
 * with the right number of arguments. `attributes.<name>` must have a default declared in the feed
 * definition (a post without the attribute, or with a non-number, scores with the default), so
 * evaluation never meets an unknown value. Returns the names the expression reads.
 */
import { ExpressionError } from './expression-errors.js';
import { type Expr, parseExpression } from './expression-parse.js';

/** The plain variables: what each candidate offers (docs/ranked-feeds.md explains each). */
export const PLAIN_VARIABLES = ['age', 'reactions', 'comments', 'popularity', 'followsAuthor', 'seen', 'authorWeight'] as const;

/** Functions and their arity, [least, most] arguments. */
export const FUNCTIONS: Readonly<Record<string, readonly [number, number]>> = {
  ln: [1, 1],
  log: [1, 2],
  min: [2, 8],
  max: [2, 8],
  decay_exp: [2, 4],
  decay_linear: [2, 4],
  decay_gauss: [2, 4],
};

const REACTION_VAR = /^reactions\.([a-z0-9_]{1,32})$/;
const ATTRIBUTE_VAR = /^attributes\.([A-Za-z0-9_]{1,64})$/;

export interface CheckedExpression {
  readonly tree: Expr;
  /** Every variable name it reads, once each (`reactions.like`, `attributes.boost`, `age`). */
  readonly variables: readonly string[];
}

/** Parse and check `source`; `defaults`: the definition's declared attribute defaults. */
export function checkExpression(source: string, defaults: Readonly<Record<string, number>> = {}): CheckedExpression {
  const tree = parseExpression(source);
  const variables = new Set<string>();
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case 'number':
        return;
      case 'var': {
        const attr = ATTRIBUTE_VAR.exec(e.name);
        if (attr) {
          if (!Object.hasOwn(defaults, attr[1]!)) throw new ExpressionError(e.column, `${e.name} needs a default in "attributeDefaults"`);
        } else if (!REACTION_VAR.test(e.name) && !(PLAIN_VARIABLES as readonly string[]).includes(e.name)) {
          throw new ExpressionError(e.column, `unknown variable "${e.name}"`);
        }
        variables.add(e.name);
        return;
      }
      case 'neg':
        return visit(e.arg);
      case 'binary':
        visit(e.left);
        return visit(e.right);
      case 'call': {
        const arity = Object.hasOwn(FUNCTIONS, e.fn) ? FUNCTIONS[e.fn] : undefined;
        if (arity === undefined) throw new ExpressionError(e.column, `unknown function "${e.fn}"`);
        const [least, most] = arity;
        if (e.args.length < least || e.args.length > most) {
          throw new ExpressionError(e.column, `${e.fn} takes ${least === most ? least : `${least} to ${most}`} arguments, not ${e.args.length}`);
        }
        for (const a of e.args) visit(a);
        return;
      }
    }
  };
  visit(tree);
  return { tree, variables: [...variables] };
}
