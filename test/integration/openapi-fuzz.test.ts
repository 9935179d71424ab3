/**
 * Bad input from an independent generator: requests derived from the SERVED `/openapi.json`
 * (fetched at test time; never from the zod schemas) across every documented operation, valid
 * and invalid, as a user, as an admin (`tickfeed/admin`), without a token and with a forged one.
 *
 * - never a 5xx;
 * - every 4xx is problem+json with a well-formed body — except the authorizer's own answers,
 *   API Gateway's bare 401 `{"message":"Unauthorized"}` (no or bad token) and 403
 *   `{"message":"Forbidden"}` (a route scope the token lacks);
 * - nothing written: mutating operations (POST/PUT/DELETE, and undocumented methods) get only
 *   inputs the document itself calls invalid, or targets that are not the caller's to change, so
 *   any 2xx/3xx from one is a failure; reads may succeed. The partitions the fuzz users could
 *   touch are byte-for-byte the same before and after.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADMIN, api, token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { feedHeadKey, parseFeedHead } from '../../functions/model/feed-head.js';
import { readConfig } from '../../lib/defs/config.js';
import { doc, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';
import { snapshotUsers } from '../support/snapshot.js';

// ---- a tiny JSON Schema (2020-12 subset) toolkit over the served document -------------------

type Schema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  items?: Schema;
};
type Param = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: Schema };
type Operation = {
  parameters?: Param[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  security?: Record<string, string[]>[];
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const MUTATING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
const codePoints = (s: string) => [...s].length;
const regexOf = (pattern: string) => new RegExp(pattern, 'u');

function makeResolver(docu: Doc) {
  return function resolve(s: Schema | undefined): Schema {
    if (!s) return {};
    if (s.$ref) {
      const m = /^#\/components\/schemas\/(.+)$/.exec(s.$ref);
      if (!m || !docu.components.schemas[m[1]!]) throw new Error(`unresolvable $ref ${s.$ref}`);
      return resolve(docu.components.schemas[m[1]!]);
    }
    return s;
  };
}

const isDateTime = (v: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(v) && !Number.isNaN(Date.parse(v));

/** Does `v` satisfy `s`? (the keywords the document uses) */
function matches(resolve: (s: Schema | undefined) => Schema, schema: Schema | undefined, v: unknown): boolean {
  const s = resolve(schema);
  if (s.const !== undefined && v !== s.const) return false;
  if (s.enum && !s.enum.includes(v)) return false;
  if (s.anyOf && !s.anyOf.some((b) => matches(resolve, b, v))) return false;
  if (s.oneOf && s.oneOf.filter((b) => matches(resolve, b, v)).length !== 1) return false;
  switch (s.type) {
    case undefined:
      break;
    case 'string':
      if (typeof v !== 'string') return false;
      if (s.minLength !== undefined && codePoints(v) < s.minLength) return false;
      if (s.maxLength !== undefined && codePoints(v) > s.maxLength) return false;
      if (s.pattern !== undefined && !regexOf(s.pattern).test(v)) return false;
      if (s.format === 'date-time' && !isDateTime(v)) return false;
      break;
    case 'integer':
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v) || (s.type === 'integer' && !Number.isInteger(v))) return false;
      if (s.minimum !== undefined && v < s.minimum) return false;
      if (s.maximum !== undefined && v > s.maximum) return false;
      break;
    case 'boolean':
      if (typeof v !== 'boolean') return false;
      break;
    case 'null': // a nullable field's other branch (a merge patch's "remove")
      if (v !== null) return false;
      break;
    case 'array':
      if (!Array.isArray(v) || (s.items && !v.every((x) => matches(resolve, s.items, x)))) return false;
      break;
    case 'object': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
      const o = v as Record<string, unknown>;
      for (const r of s.required ?? []) if (!Object.hasOwn(o, r)) return false;
      for (const [k, x] of Object.entries(o)) {
        if (s.propertyNames && !matches(resolve, s.propertyNames, k)) return false;
        if (s.properties && Object.hasOwn(s.properties, k)) {
          if (!matches(resolve, s.properties[k], x)) return false;
        } else if (s.additionalProperties === false) {
          return false;
        } else if (typeof s.additionalProperties === 'object' && !matches(resolve, s.additionalProperties, x)) {
          return false;
        }
      }
      break;
    }
    default:
      throw new Error(`unsupported type ${s.type}`);
  }
  return true;
}

/** Values satisfying `s` (best effort; the caller does not rely on them being accepted). */
function validOf(resolve: (s: Schema | undefined) => Schema, schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => validOf(resolve, b, depth + 1)));
  switch (s.type) {
    case 'string': {
      const min = s.minLength ?? 0;
      const max = Math.min(s.maxLength ?? 40, Math.max(min, 40));
      if (s.format === 'date-time') {
        const now = Date.now();
        return fc.integer({ min: now - 3_600_000, max: now }).map((t) => new Date(t).toISOString());
      }
      if (s.pattern) {
        let arb: fc.Arbitrary<string>;
        try {
          arb = fc.stringMatching(regexOf(s.pattern));
        } catch {
          arb = fc.string({ minLength: min, maxLength: max });
        }
        return arb.filter((x) => codePoints(x) >= min && codePoints(x) <= (s.maxLength ?? Infinity) && regexOf(s.pattern!).test(x));
      }
      return fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
    }
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validOf(resolve, s.items, depth + 1), { maxLength: depth > 2 ? 0 : 3 });
    case 'object': {
      if (s.properties) {
        const props = Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, validOf(resolve, p, depth + 1)]));
        return fc.record(props, { requiredKeys: (s.required ?? []) as never[] });
      }
      if (s.propertyNames || typeof s.additionalProperties === 'object') {
        return fc.dictionary(
          validOf(resolve, s.propertyNames ?? { type: 'string', minLength: 1, maxLength: 12 }, depth + 1) as fc.Arbitrary<string>,
          validOf(resolve, s.additionalProperties === true ? undefined : (s.additionalProperties as Schema), depth + 1),
          { maxKeys: depth > 2 ? 0 : 4 },
        );
      }
      return fc.constant({});
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const asciiOfLength = (min: number, max: number) => fc.integer({ min, max }).chain((n) => fc.constantFrom('x', 'é', '7', '%').map((c) => c.repeat(n)));

/** Candidate values violating `s` as a JSON value (filtered against the schema by the caller). */
function invalidCandidates(resolve: (s: Schema | undefined) => Schema, schema: Schema | undefined): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const arbs: fc.Arbitrary<unknown>[] = [
    fc.constantFrom(null, true, 0, -1, 1.5, 1e300, '', 'x', [], [1], {}, { a: 1 }),
    fc.string({ maxLength: 20, unit: 'binary' }),
  ];
  if (s.maxLength !== undefined) arbs.push(asciiOfLength(s.maxLength + 1, s.maxLength + 200));
  if (s.pattern) arbs.push(fc.string({ maxLength: 30, unit: 'binary' }).filter((x) => !regexOf(s.pattern!).test(x)));
  if (s.minimum !== undefined) arbs.push(fc.double({ max: s.minimum, maxExcluded: true, noNaN: true, noDefaultInfinity: true }));
  if (s.maximum !== undefined) arbs.push(fc.double({ min: s.maximum, minExcluded: true, noNaN: true, noDefaultInfinity: true }));
  if (s.format === 'date-time') arbs.push(fc.constantFrom('yesterday', '2026-13-01T00:00:00Z', '2026-11-22', '2026-11-22T10:00:00', '9999-99-99T99:99:99Z'));
  if (s.type === 'object') {
    arbs.push(fc.dictionary(fc.string({ maxLength: 70, unit: 'binary' }), fc.constantFrom(null, [], { deep: {} }, 1e300), { minKeys: 1, maxKeys: 3 }));
  }
  return fc.oneof(...arbs);
}

/** Query/path values are strings: string-level violations of `s`. */
function invalidStringCandidates(resolve: (s: Schema | undefined) => Schema, schema: Schema | undefined): fc.Arbitrary<string> {
  const s = resolve(schema);
  const arbs: fc.Arbitrary<string>[] = [
    fc.constantFrom('', ' ', '-1', '0', '1.5', 'abc', 'null', '1e3', '0x10', '%', '\u0000', '\u007f', '9'.repeat(40)),
    fc.string({ maxLength: 30, unit: 'binary' }),
  ];
  if (s.maxLength !== undefined) arbs.push(asciiOfLength(s.maxLength + 1, s.maxLength + 300));
  if (s.pattern) arbs.push(fc.string({ maxLength: 40, unit: 'binary' }).filter((x) => !regexOf(s.pattern!).test(x)));
  if (s.maximum !== undefined) arbs.push(fc.integer({ min: s.maximum + 1, max: s.maximum + 100_000 }).map(String));
  if (s.minimum !== undefined) arbs.push(fc.integer({ min: s.minimum - 100_000, max: s.minimum - 1 }).map(String));
  return fc.oneof(...arbs);
}

/** A string query/path value is valid for `s` (numbers/booleans arrive as their text). */
function stringMatches(resolve: (s: Schema | undefined) => Schema, schema: Schema | undefined, v: string): boolean {
  const s = resolve(schema);
  if (s.type === 'integer' || s.type === 'number') return /^-?\d+(\.\d+)?$/.test(v) && matches(resolve, s, Number(v));
  if (s.type === 'boolean') return v === 'true' || v === 'false';
  return matches(resolve, s, v);
}

const safeEncode = (v: string): string | undefined => {
  try {
    return encodeURIComponent(v);
  } catch {
    return undefined; // lone surrogate: not a URL
  }
};

// ---- requests --------------------------------------------------------------------------------

type Caller = 'user' | 'admin' | 'none' | 'forged';
interface Req {
  op: string; // "GET /path/template" (or an undocumented method)
  method: string;
  path: string;
  caller: Caller;
  body?: string;
  contentType?: string;
  /** The operation requires a scope this caller lacks: API Gateway's bare 403 is the answer. */
  scopeMissing: boolean;
  mutating: boolean;
}

interface Actors {
  user: string;
  admin: string;
  victim: string;
  victimActivity: string;
}

function buildRequests(docu: Doc, actors: Actors, count: number): Req[] {
  const resolve = makeResolver(docu);
  const ops: fc.WeightedArbitrary<Req>[] = [];
  const callerArb = fc.constantFrom<Caller>('user', 'user', 'user', 'admin', 'admin', 'admin', 'none', 'forged');
  const knownUsers = [actors.user, actors.admin, actors.victim];

  for (const [template, item] of Object.entries(docu.paths)) {
    for (const [m, op] of Object.entries(item)) {
      const method = m.toUpperCase();
      const mutating = MUTATING.has(method);
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const secured = (op.security ?? []).length > 0;
      const scopes = (op.security ?? []).flatMap((req) => Object.values(req).flat());
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;

      // Path parameter values. Mutations: only values the document calls invalid, or targets that
      // are not the caller's (someone else's activity, a made-up id): never a legitimate change.
      const pathValue = (p: Param, caller: Caller): fc.Arbitrary<string> => {
        const ps = resolve(p.schema);
        const constrained =
          ['pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'enum', 'const', 'format'].some((k) => k in ps) || (ps.type ?? 'string') !== 'string';
        // Nothing is invalid for an unconstrained string: "made-up" values stand in.
        const invalid = constrained
          ? invalidStringCandidates(resolve, p.schema).filter((v) => !stringMatches(resolve, p.schema, v))
          : invalidStringCandidates(resolve, p.schema).filter((v) => v !== '');
        if (!mutating) {
          const valid = validOf(resolve, p.schema).map(String);
          return fc.oneof(fc.constantFrom(...knownUsers, actors.victimActivity), valid, valid, invalid);
        }
        if (method === 'PUT' && p.name === 'userId' && (caller === 'user' || caller === 'admin')) {
          // Following yourself is refused (400) too.
          return fc.oneof(invalid, fc.constant(caller === 'user' ? actors.user : actors.admin));
        }
        if (method === 'PATCH' && template === '/activities/{id}') {
          // Someone else's activity (404) — but an admin may edit anyone's: ids that name nothing for them.
          const madeUp = validOf(resolve, p.schema).map((v) => `nx${String(v)}`);
          return caller === 'admin' ? fc.oneof(madeUp, invalid) : fc.oneof(fc.constant(actors.victimActivity), madeUp, invalid);
        }
        if (method === 'DELETE' && template === '/activities/{id}') {
          // Someone else's activity (403), or ids that name nothing (404 / 400).
          return fc.oneof(
            fc.constant(actors.victimActivity),
            validOf(resolve, p.schema).map((v) => `nx${String(v)}`),
            invalid,
          );
        }
        return invalid;
      };

      const queryArb: fc.Arbitrary<string[]> = fc
        .tuple(
          ...queryParams.map((p) =>
            fc.oneof(
              { weight: 3, arbitrary: fc.constant(undefined) },
              { weight: 4, arbitrary: validOf(resolve, p.schema).map((v) => `${p.name}=${safeEncode(String(v)) ?? ''}`) },
              { weight: 2, arbitrary: invalidStringCandidates(resolve, p.schema).map((v) => `${p.name}=${safeEncode(v) ?? '%ZZ'}`) },
              { weight: 1, arbitrary: fc.constant(`${p.name}=1&${p.name}=2`) },
            ),
          ),
          fc.oneof(
            { weight: 8, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: fc.constantFrom('__proto__=1', 'constructor=x', 'page=2', 'cursor=abc', '&&', '=', 'a=%ZZ', '%FF=1') },
            {
              weight: 1,
              arbitrary: fc
                .tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 }))
                .map(([k, v]) => `${safeEncode(k) ?? 'k'}=${safeEncode(v) ?? ''}`),
            },
          ),
        )
        .map((parts) => parts.filter((x): x is string => x !== undefined));

      // Bodies: every body sent is invalid by the document (or sent
      // in a way it refuses: bad JSON, wrong content type, over the size limit).
      const bodyArb: fc.Arbitrary<{ body?: string; contentType?: string }> = bodySchema
        ? (() => {
            const s = resolve(bodySchema);
            const base = validOf(resolve, s) as fc.Arbitrary<Record<string, unknown>>;
            const propNames = Object.keys(s.properties ?? {});
            const wrongField = fc
              .tuple(base, fc.constantFrom(...propNames))
              .chain(([b, k]) => invalidCandidates(resolve, s.properties![k]).map((v) => ({ ...b, [k]: v })));
            const nestedBad = fc.tuple(base, fc.constantFrom(...propNames)).chain(([b, k]) => {
              const ps = resolve(s.properties![k]);
              if (ps.type !== 'object') return fc.constant({ ...b, [k]: [] });
              return fc
                .tuple(
                  fc.string({ maxLength: 70, unit: 'binary' }),
                  invalidCandidates(resolve, typeof ps.additionalProperties === 'object' ? ps.additionalProperties : undefined),
                )
                .map(([nk, nv]) => ({ ...b, [k]: { ok: 1, [nk]: nv } }));
            });
            const unknownField = fc
              .tuple(
                base,
                fc.string({ minLength: 1, maxLength: 16 }).filter((k) => !propNames.includes(k)),
                fc.jsonValue({ maxDepth: 1 }),
              )
              .map(([b, k, v]) => ({ ...b, [k]: v }));
            const missingRequired = base.map((b) => {
              const copy = { ...b };
              for (const r of s.required ?? []) delete copy[r];
              return copy;
            });
            const wholeWrong = fc.constantFrom<unknown>(null, [], 0, 'x', true, [{}]);
            const invalidJson = fc
              .oneof(wrongField, nestedBad, unknownField, missingRequired, wholeWrong)
              .filter((v) => !matches(resolve, s, v))
              .map((v) => ({ body: JSON.stringify(v), contentType: 'application/json' }));
            // An empty body is invalid only where the document requires one (`required: false`:
            // POST /notifications/seen and /read, where empty means "every group").
            const bodyRequired = op.requestBody?.required !== false;
            const badJson = fc
              .oneof(fc.string({ maxLength: 40, unit: 'binary' }), fc.constantFrom('{', '{"a":', '{"a":1,}', "{'a':1}", '[1,2', 'nul', '{} x', ''))
              .filter((t) => bodyRequired || t !== '')
              .filter((t) => {
                try {
                  JSON.parse(t);
                  return false;
                } catch {
                  return true;
                }
              })
              .map((body) => ({ body, contentType: 'application/json' }));
            const wrongType = fc
              .tuple(
                base,
                fc.constantFrom(
                  'text/plain',
                  'application/xml',
                  'application/x-www-form-urlencoded',
                  'application/json; charset=latin1',
                  'multipart/form-data',
                ),
              )
              .map(([b, contentType]) => ({ body: JSON.stringify(b), contentType }));
            const noContentType = base.map((b) => ({ body: JSON.stringify(b) }));
            const oversized = fc.integer({ min: 17 * 1024, max: 48 * 1024 }).map((n) => ({
              body: JSON.stringify({ [propNames[0] ?? 'x']: 'x'.repeat(n) }),
              contentType: 'application/json',
            }));
            return fc.oneof(
              { weight: 8, arbitrary: invalidJson },
              { weight: 2, arbitrary: badJson },
              { weight: 2, arbitrary: wrongType },
              { weight: 1, arbitrary: noContentType },
              { weight: 1, arbitrary: oversized },
            );
          })()
        : fc.constant({});

      // A mutation with nothing to get wrong (DELETE /me: no parameter, no body) can only be refused
      // to a caller without a valid token: the fuzz users are never erased.
      const inputless = mutating && pathParams.length === 0 && !bodySchema;
      const opCallers = inputless ? fc.constantFrom<Caller>('none', 'forged') : callerArb;
      ops.push({
        weight: 5,
        arbitrary: opCallers.chain((caller) =>
          fc.tuple(fc.tuple(...pathParams.map((p) => pathValue(p, caller))), queryArb, bodyArb).map(([values, query, body]) => {
            let path = template;
            pathParams.forEach((p, i) => {
              path = path.replace(`{${p.name}}`, safeEncode(values[i]!) ?? '%ZZ');
            });
            if (query.length) path += `?${query.join('&')}`;
            const scopeMissing = secured && scopes.length > 0 && caller !== 'admin';
            return { op: `${method} ${template}`, method, path, caller, ...body, scopeMissing, mutating };
          }),
        ),
      });
    }

    // Undocumented methods on documented paths: 405, never a write.
    ops.push({
      weight: 1,
      arbitrary: fc
        .tuple(
          callerArb,
          fc.constantFrom('PATCH', 'PUT', 'POST', 'DELETE').filter((x) => !Object.keys(item).includes(x.toLowerCase())),
        )
        .map(([caller, other]) => ({
          op: `${other} ${template} (undocumented)`,
          method: other,
          path: template.replace(/\{[^}]+\}/g, 'x'),
          caller,
          body: '{"verb":"post"}',
          contentType: 'application/json',
          scopeMissing: false,
          mutating: true,
        })),
    });
  }
  return fc.sample(fc.oneof(...ops), { seed: 20261123, numRuns: count });
}

// ---- snapshot of everything the fuzz users could touch ----------------------------------------

async function settledSnapshot(users: string[]): Promise<string> {
  let last = await snapshotUsers(users);
  for (;;) {
    // Bounded: a refused request's stray job has no sentinel to wait on and the shared stack's queues are not ours to drain.
    await new Promise((r) => setTimeout(r, 500));
    const now = await snapshotUsers(users);
    if (now === last) return now;
    last = now;
  }
}

describe('requests generated from the served /openapi.json', () => {
  it('≥ 10,000 valid and invalid requests: no 5xx, 4xx problem+json (bar the authorizer), nothing written', async () => {
    const served = await api<Doc>('GET', '/openapi.json');
    expect(served.status).toBe(200);
    const docu = served.body;

    const actors = { user: uid('oa-user'), admin: uid('oa-admin'), victim: uid('oa-victim'), victimActivity: '' };
    const seeded = await api('POST', '/activities', { as: actors.victim, json: { verb: 'post', content: 'seed', foreignId: 'f' } });
    expect(seeded.status).toBe(201);
    actors.victimActivity = seeded.body.id as string;
    const users = [actors.user, actors.admin, actors.victim];
    // A reader's first read stamps their activity bound (docs/lanes.md#who-gets-a-copy): a write a
    // read may cause once per half window, made here before the snapshot, not by the fuzz.
    for (const u of users) expect((await api('GET', '/feed', { as: u })).status).toBe(200);
    const stamped = async (u: string) =>
      parseFeedHead((await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: feedHeadKey(u), ConsistentRead: true }))).Item).activeUntil !==
      undefined;
    // (With FANOUT_ACTIVE_WINDOW=off nothing is stamped: reads write nothing at all.)
    if (readConfig('FANOUT_ACTIVE_WINDOW') !== undefined)
      await eventually(async () => (await Promise.all(users.map(stamped))).every(Boolean), { what: 'the fuzz users stamped' });
    const before = await settledSnapshot(users);

    const bearer: Record<Caller, string | undefined> = {
      user: await token(actors.user),
      admin: await token(actors.admin, { scope: ADMIN }),
      none: undefined,
      forged: `${(await token(actors.user)).slice(0, -4)}AAAA`,
    };

    const requests = buildRequests(docu, actors, 10_400);
    const documentedOps = Object.entries(docu.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    const perOp = new Map<string, number>();
    for (const r of requests) perOp.set(r.op, (perOp.get(r.op) ?? 0) + 1);
    for (const op of documentedOps) expect(perOp.get(op) ?? 0, op).toBeGreaterThan(100);

    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const started = Date.now();
    const send = async (r: Req) => {
      const headers: Record<string, string> = {};
      const b = bearer[r.caller];
      if (b) headers.authorization = `Bearer ${b}`;
      if (r.contentType) headers['content-type'] = r.contentType;
      const res = await fetch(`${stack.apiUrl}${r.path}`, { method: r.method, headers, body: r.body });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const type = res.headers.get('content-type') ?? '';
      const fail = (why: string) => {
        failures.push(
          `${why}: [${r.caller}] ${r.method} ${r.path.slice(0, 100)} ${r.body ? `body=${r.body.slice(0, 80)} ` : ''}→ ${res.status} ${type} ${text.slice(0, 160)}`,
        );
      };
      if (res.status >= 500) return fail('5xx');
      if (res.status < 400) {
        if (r.mutating) fail('a refused-by-design mutation succeeded');
        return;
      }
      // The authorizer's own answers: bare API Gateway JSON, only where the authorizer is the one answering.
      if (res.status === 401 && (r.caller === 'none' || r.caller === 'forged')) {
        if (text !== '{"message":"Unauthorized"}') fail('authorizer 401 not bare');
        return;
      }
      if (res.status === 403 && r.scopeMissing && (r.caller === 'user' || r.caller === 'admin')) {
        if (text !== '{"message":"Forbidden"}') fail('authorizer 403 not bare');
        return;
      }
      if (!type.startsWith('application/problem+json')) return fail('4xx not problem+json');
      try {
        const p = JSON.parse(text) as { status?: unknown; type?: unknown; title?: unknown };
        if (p.status !== res.status || typeof p.type !== 'string' || !p.type || typeof p.title !== 'string' || !p.title) fail('malformed problem');
      } catch {
        fail('problem body not JSON');
      }
    };

    // Bounded concurrency: 16 in flight (measured alone on a 2-core machine: 8 in flight ~300
    // requests/s, 32 ~550; in the suite another file shares the stack, so not more). Which requests
    // are sent and what is checked of each answer do not depend on it.
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < requests.length) await send(requests[next++]!);
      }),
    );
    const elapsed = Date.now() - started;
    const histogram = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
    console.log(
      `openapi fuzz: ${requests.length} requests over ${documentedOps.length} operations in ${(elapsed / 1000).toFixed(1)} s; ` +
        `statuses ${JSON.stringify(histogram)}; per operation ${JSON.stringify(Object.fromEntries([...perOp].sort()))}`,
    );

    expect(failures.slice(0, 25), `${failures.length} failures`).toEqual([]);
    expect(requests.length).toBeGreaterThanOrEqual(10_000);
    expect(await settledSnapshot(users)).toBe(before);
  }, 180_000);
});
