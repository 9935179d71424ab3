/**
 * Does a response conform to the OpenAPI document? For the route the request resolves to (the
 * same route table the API uses) the status must be documented; the media type must be one the
 * status lists, and the body must validate against its schema (ajv, JSON Schema 2020-12 — OpenAPI
 * 3.1's dialect — with the document's own `#/components/schemas`); a status without content has no
 * body; required headers are present. Requests no route matches get the `$default` answers the
 * document's description promises: 404, or 405 with `Allow`, as problem+json.
 *
 * @example
 *   const check = responseChecker(openApiDocument());
 *   check({ method: 'GET', path: '/feed', status: 200, headers: res.headers, text }); // [] or violations
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { resolveRoute } from '../../lib/defs/routes.js';

export interface SeenResponse {
  readonly method: string;
  /** The request path; a query string is ignored. */
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  /** The body as received. */
  readonly text: string;
}

type Json = Record<string, unknown>;
type MediaTypes = Record<string, { schema?: unknown }>;
type ResponseObject = { $ref?: string; content?: MediaTypes; headers?: Record<string, { required?: boolean }> };

const DOC = 'tickfeed-openapi';

/** A checker for one document: returns the ways a response breaks it (none: `[]`). */
export function responseChecker(doc: Json): (res: SeenResponse) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc, DOC);
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) validators.set(pointer, (validate = ajv.compile({ $ref: `${DOC}#${pointer}` })));
    return validate;
  };
  const paths = doc.paths as Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
  const sharedResponses = ((doc.components as Json | undefined)?.responses ?? {}) as Record<string, ResponseObject>;

  return (res) => {
    const pathname = res.path.split('?')[0]!;
    const what = `${res.method} ${pathname} → ${res.status}`;
    const resolved = resolveRoute(res.method, pathname);
    if (!resolved.route) {
      const expected = resolved.allow.length > 0 ? 405 : 404;
      if (res.status !== expected) return [`${what}: no route, so ${expected} was due`];
      return bodyViolations(what, res, { 'application/problem+json': {} }, () => validatorAt('/components/schemas/Problem'));
    }
    const template = resolved.route.path;
    const operation = paths[template]?.[res.method.toLowerCase()];
    if (!operation) return [`${what}: the document has no ${res.method} ${template}`];
    const key = String(res.status);
    let response = operation.responses[key];
    let pointer = `/paths/${escape(template)}/${res.method.toLowerCase()}/responses/${key}`;
    if (response?.$ref) {
      const name = response.$ref.replace('#/components/responses/', '');
      response = sharedResponses[name];
      pointer = `/components/responses/${escape(name)}`;
    }
    if (!response) return [`${what}: status ${key} is not documented for ${res.method} ${template}`];
    const missing = Object.entries(response.headers ?? {})
      .filter(([name, h]) => h.required && !res.headers.has(name))
      .map(([name]) => `${what}: required header ${name} missing`);
    if (!response.content) return [...missing, ...(res.text === '' ? [] : [`${what}: documented without a body, got ${res.text.slice(0, 80)}`])];
    return [...missing, ...bodyViolations(what, res, response.content, (type) => validatorAt(`${pointer}/content/${escape(type)}/schema`))];
  };
}

function bodyViolations(what: string, res: SeenResponse, content: MediaTypes, validatorFor: (type: string) => ValidateFunction): string[] {
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!Object.hasOwn(content, type)) return [`${what}: content type "${type}" is not one of ${Object.keys(content).join(', ')}`];
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return [`${what}: body is not JSON: ${res.text.slice(0, 80)}`];
  }
  const validate = validatorFor(type);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${what}: ${type} body${e.instancePath} ${e.message ?? 'is invalid'} (${e.schemaPath})`);
}

/** One JSON Pointer reference token, escaped for a URI fragment (`{userId}`, `problem+json`). */
const escape = (token: string) => encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'));
