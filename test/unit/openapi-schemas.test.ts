import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DOCUMENTED_AS, SchemaCollector } from '../../functions/http/openapi-schemas.js';

// Ids of their own, so the document's named schemas (registered on import elsewhere) stay apart.
const Inner = z.strictObject({ n: z.number() }).meta({ id: 'TestInner' });
const Outer = z.strictObject({ inner: Inner, tag: z.string().optional() }).meta({ id: 'TestOuter' });
const Loose = z.object({ a: z.string() }).meta({ id: 'TestLoose' });
z.object({ unused: z.string() }).meta({ id: 'TestUnused' });

describe('SchemaCollector', () => {
  it('refers to named schemas and emits exactly the ones used, with what they refer to', () => {
    const c = new SchemaCollector();
    expect(c.schemaOf(Outer, 'output')).toEqual({ $ref: '#/components/schemas/TestOuter' });
    const components = c.components();
    expect(Object.keys(components)).toEqual(['TestInner', 'TestOuter']);
    expect(components.TestOuter).toMatchObject({ properties: { inner: { $ref: '#/components/schemas/TestInner' } } });
  });

  it('inlines an unnamed schema, pointing its named parts at components', () => {
    const c = new SchemaCollector();
    expect(c.schemaOf(z.array(Inner), 'output')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/TestInner' } });
    expect(Object.keys(c.components())).toEqual(['TestInner']);
  });

  it('lets a schema serve requests and responses only if both read the same', () => {
    const same = new SchemaCollector();
    same.schemaOf(Inner, 'input');
    same.schemaOf(Inner, 'output');
    expect(Object.keys(same.components())).toEqual(['TestInner']);

    const differs = new SchemaCollector(); // a plain z.object tolerates unknown keys as input only
    differs.schemaOf(Loose, 'input');
    differs.schemaOf(Loose, 'output');
    expect(() => differs.components()).toThrow(/TestLoose serves requests and responses/);
  });

  it('shows a `documentedAs` schema in place of the derived one, kept through describe() and optional()', () => {
    const digits = z
      .string()
      .regex(/^\d+$/)
      .meta({ description: 'Digits.', [DOCUMENTED_AS]: { type: 'integer', minimum: 1 } });
    const query = z.object({ plain: digits.optional(), described: digits.describe('Renamed.').optional(), other: z.string().regex(/^a$/) });
    const c = new SchemaCollector();
    expect(c.schemaOf(query, 'input')).toMatchObject({
      properties: {
        plain: { type: 'integer', minimum: 1, description: 'Digits.' },
        described: { type: 'integer', minimum: 1, description: 'Renamed.' },
        other: { type: 'string', pattern: '^a$' },
      },
    });
    expect(JSON.stringify(c.schemaOf(query, 'input'))).not.toMatch(/documentedAs|\\d/);
    expect(digits.safeParse('1e1').success).toBe(false); // the check itself is unchanged
  });
});
