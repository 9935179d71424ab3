/** The ranking language (services/ranking/expression-*): pure — parse, check, evaluate, bounds. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkExpression } from '../../functions/services/ranking/expression-check.js';
import { EXPRESSION_LIMITS, ExpressionError } from '../../functions/services/ranking/expression-errors.js';
import { evaluateExpression } from '../../functions/services/ranking/expression-evaluate.js';

const score = (src: string, vars: Record<string, number> = {}, defaults: Record<string, number> = {}) =>
  evaluateExpression(checkExpression(src, defaults).tree, vars);

const columnOf = (src: string, defaults: Record<string, number> = {}): number => {
  try {
    checkExpression(src, defaults);
  } catch (e) {
    if (e instanceof ExpressionError) return e.column;
    throw e;
  }
  throw new Error(`${src} checked`);
};

describe('ranking expressions', () => {
  it.each([
    ['1 + 2 * 3', {}, 7],
    ['(1 + 2) * 3', {}, 9],
    ['-2 * -3', {}, 6],
    ['10 / 4 - 1', {}, 1.5],
    ['1 - 2 - 3', {}, -4], // left associative
    ['8 / 2 / 2', {}, 2],
    ['2 < 3', {}, 1],
    ['2 >= 3', {}, 0],
    ['1 + 1 == 2', {}, 1],
    ['3 != 3', {}, 0],
    ['1.5e2 + .5', {}, 150.5],
    ['popularity * 2 + reactions.like', { popularity: 3, 'reactions.like': 4 }, 10],
    ['ln(1 + comments)', { comments: Math.E - 1 }, 1],
    ['log(1000)', {}, 3],
    ['log(8, 2)', {}, 3],
    ['min(3, age, 7)', { age: 1 }, 1],
    ['max(3, age)', { age: 1 }, 3],
    ['decay_exp(age, 24)', { age: 24 }, 0.5],
    ['decay_exp(age, 24)', { age: 0 }, 1],
    ['decay_exp(age, 10, 5, 0.25)', { age: 15 }, 0.25],
    ['decay_linear(age, 24)', { age: 48 }, 0],
    ['decay_linear(age, 24)', { age: 12 }, 0.75],
    ['decay_gauss(age, 24)', { age: 24 }, 0.5],
    ['decay_gauss(age, 24, 6)', { age: 6 }, 1],
    ['followsAuthor * 10 - seen * 5', { followsAuthor: 1, seen: 1 }, 5],
    ['attributes.boost + 1', { 'attributes.boost': 2 }, 3],
  ] as const)('%s = %s', (src, vars, want) => {
    expect(score(src, vars, { boost: 0 })).toBeCloseTo(want, 10);
  });

  it('keeps every score finite: NaN is the lowest, infinities the largest finite', () => {
    expect(score('ln(0)')).toBe(-Number.MAX_VALUE);
    expect(score('1 / 0')).toBe(Number.MAX_VALUE);
    expect(score('0 / 0')).toBe(-Number.MAX_VALUE);
    expect(score('decay_exp(age, 0)', { age: 1 })).toBe(-Number.MAX_VALUE); // a scale of 0 is meaningless
  });

  it.each([
    ['1 +', 4, /expected a number/],
    ['reactions + bogus', 13, /unknown variable "bogus"/],
    ['sqrt(4)', 1, /unknown function "sqrt"/],
    ['ln(1, 2)', 1, /ln takes 1 arguments, not 2/],
    ['min(1)', 1, /min takes 2 to 8/],
    ['1 < 2 < 3', 7, /do not chain/],
    ['(1 + 2', 7, /expected "\)"/],
    ['1 2', 3, /unexpected "2"/],
    ['age $ 2', 5, /unexpected character "\$"/],
    ['attributes.boost', 1, /needs a default/],
    ['toString', 1, /unknown variable/],
    ['constructor(1)', 1, /unknown function/],
    ['reactions.Like', 1, /unknown variable/],
  ])('%s fails at column %s', (src, column, reason) => {
    expect(columnOf(src)).toBe(column);
    expect(() => checkExpression(src)).toThrow(reason);
  });

  it('bounds length, size and depth', () => {
    expect(() => checkExpression('1'.repeat(EXPRESSION_LIMITS.maxLength + 1))).toThrow(/longer than/);
    expect(() => checkExpression(Array.from({ length: 60 }, () => '1').join('+'))).toThrow(/more than 100 parts/);
    expect(() => checkExpression(`${'('.repeat(30)}1${')'.repeat(30)}`)).toThrow(/deeper than/);
    expect(() => checkExpression('-'.repeat(30) + '1')).toThrow(/deeper than/);
    expect(() => checkExpression(`${'ln('.repeat(30)}1${')'.repeat(30)}`)).toThrow(/deeper than/);
  });

  it('names the variables an expression reads, once each', () => {
    expect([...checkExpression('reactions.like + age * age + attributes.x', { x: 1 }).variables].sort()).toEqual(['age', 'attributes.x', 'reactions.like']);
  });

  it('never throws anything but an ExpressionError, and what checks always scores finite', () => {
    const alphabet = fc.constantFrom('1', '2.5', 'age', 'reactions', 'ln(', 'min(', ',', '(', ')', '+', '-', '*', '/', '<', '==', ' ', 'x', '$');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), fc.double({ noNaN: true }), (parts, age) => {
        const src = parts.join('');
        let checked;
        try {
          checked = checkExpression(src);
        } catch (e) {
          expect(e).toBeInstanceOf(ExpressionError);
          const column = (e as ExpressionError).column;
          expect(column).toBeGreaterThanOrEqual(1);
          expect(column).toBeLessThanOrEqual(src.length + 1);
          return;
        }
        expect(Number.isFinite(evaluateExpression(checked.tree, { age, reactions: 3 }))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
