/**
 * zod → JSON Schema for the OpenAPI document (`z.toJSONSchema`: draft 2020-12, OpenAPI 3.1's
 * dialect). Schemas with a `.meta({ id })` become `#/components/schemas/<id>` references; the
 * collector remembers which ids the document used, in which direction, and emits exactly those
 * (and what they reference), so no component is missing or unused.
 *
 * Direction matters: zod describes what a schema accepts (`input`: requests — an optional field
 * may be absent, a plain object tolerates unknown keys) or what it produces (`output`: responses —
 * a plain object has exactly its keys). One named schema may serve both only if both read the same.
 */
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)

export type JsonSchema = Record<string, unknown>;
export type Direction = 'input' | 'output';

const COMPONENTS = '#/components/schemas/';

/**
 * `.meta({ documentedAs: {...} })` on a zod schema: the JSON Schema the document shows for it in
 * place of the one zod derives from its checks (its `description` kept). For query values, which
 * arrive as text: the zod checks stay on the text (`limit`: digits, never coerced), the document
 * says what the text means (an integer), so typed clients send a number. zod's registry hands the
 * key on to `.describe()`d copies; a test checks the edge accepts what the document promises.
 */
export const DOCUMENTED_AS = 'documentedAs';

const showDocumentedAs: NonNullable<Parameters<typeof z.toJSONSchema>[1]>['override'] = ({ zodSchema, jsonSchema }) => {
  const shown = z.globalRegistry.get(zodSchema)?.[DOCUMENTED_AS];
  if (shown === undefined) return;
  const { description } = jsonSchema;
  for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
  Object.assign(jsonSchema, shown, description === undefined ? {} : { description });
};

/** How every schema of the document is converted (tests convert with the same). */
export const JSON_SCHEMA_OPTIONS = {
  unrepresentable: 'any', // refinements have no JSON Schema form: the checks keep them
  override: showDocumentedAs,
} as const;
const options = JSON_SCHEMA_OPTIONS;

export class SchemaCollector {
  private readonly used = new Map<string, Set<Direction>>();

  /** The schema as it appears in the document: a `$ref` when it is named. */
  schemaOf(schema: z.ZodType, io: Direction): JsonSchema {
    const id = z.globalRegistry.get(schema)?.id;
    if (id !== undefined) {
      this.use(id, io);
      return { $ref: `${COMPONENTS}${id}` };
    }
    const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { ...options, io }) as JsonSchema;
    // zod puts the named schemas it meets inside into $defs, keyed by id: they become components.
    for (const defId of Object.keys(($defs as JsonSchema | undefined) ?? {})) this.use(defId, io);
    return relinked(rest) as JsonSchema;
  }

  /** Every named schema the document used, and the ones those refer to, by id. */
  components(): Record<string, JsonSchema> {
    const uri = (id: string) => `${COMPONENTS}${id}`;
    const all: Record<Direction, Record<string, unknown>> = {
      input: z.toJSONSchema(z.globalRegistry, { ...options, io: 'input', uri }).schemas,
      output: z.toJSONSchema(z.globalRegistry, { ...options, io: 'output', uri }).schemas,
    };
    const read = (id: string, io: Direction): JsonSchema => {
      if (all[io][id] === undefined) throw new Error(`"${id}" is not a named schema (zod made it a $defs entry of its own)`);
      const { $schema: _dialect, $id: _id, ...schema } = all[io][id] as JsonSchema;
      return schema;
    };
    const out: Record<string, JsonSchema> = {};
    const pending = [...this.used].flatMap(([id, dirs]) => [...dirs].map((io) => [id, io] as const));
    while (pending.length > 0) {
      const [id, io] = pending.pop()!;
      const schema = read(id, io);
      if (out[id] !== undefined) {
        if (JSON.stringify(out[id]) !== JSON.stringify(schema)) {
          throw new Error(`Schema ${id} serves requests and responses and reads differently in each: give one its own schema`);
        }
        continue;
      }
      out[id] = schema;
      for (const ref of refsIn(schema)) pending.push([ref, io]);
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }

  private use(id: string, io: Direction): void {
    const dirs = this.used.get(id) ?? new Set<Direction>();
    dirs.add(io);
    this.used.set(id, dirs);
  }
}

/** `#/$defs/<id>` (single-schema output) → `#/components/schemas/<id>`. */
function relinked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relinked);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, COMPONENTS) : relinked(v)]),
  );
}

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, found));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENTS)) found.push(v.slice(COMPONENTS.length));
      else refsIn(v, found);
    }
  }
  return found;
}
