/**
 * The OpenAPI 3.1 document of the feed API, generated from the route table (lib/defs/routes.ts:
 * operation ids, methods, paths, access) joined with the schema table (operations.ts: the zod
 * schemas the edge validates with). Nothing here describes a parameter or a body by hand.
 *
 * @example
 *   const doc = openApiDocument(); // what GET /openapi.json serves
 */
import { type RouteDef, routeKey, routes } from '../../lib/defs/routes.js';
import { ADMIN_SCOPE } from '../../lib/defs/scopes.js';
import { type OperationSpec, operations } from './operations.js';
import { type JsonSchema, SchemaCollector } from './openapi-schemas.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';
import { gatewayMessageSchema, problemSchema } from './response-schemas.js';
import { LIMITS } from './schemas.js';

type Responses = Record<string, unknown>;

const description = [
  'Activity feeds keyed by time.',
  '',
  'Errors are RFC 9457 `application/problem+json` (`Problem`), except the answers API Gateway gives on its own:',
  'the authorizer (401 without a valid token, 403 without a required scope), stage throttling (429), a body over',
  '10 MB (413) and a timed-out function (503), all `{"message": …}` (`GatewayMessage`). A path not listed',
  'here answers 404, a method a listed path does not have 405 (with `Allow`), both problem+json.',
  '',
  'Text anywhere in a request (path, query, body, object keys) may not hold control characters other than tab,',
  'LF and CR, U+FFFE, U+FFFF or lone surrogates: jobs carry it through SQS, which refuses them (400).',
].join('\n');

/** Answers any route may give, from API Gateway (`GatewayMessage`) or from the function (problem+json with `Retry-After`). */
const GATEWAY_ANSWERS = {
  429: [
    'TooManyRequests',
    "The caller used up a per-caller rate limit (problem+json with `Retry-After`, see RATE_LIMITS), or the stage or route limit throttled (API Gateway's `GatewayMessage`).",
  ],
  503: [
    'ServiceUnavailable',
    "Too many concurrent changes to the same data, or throttling, past bounded retries (problem+json with `Retry-After`), or the function timed out (API Gateway's `GatewayMessage`).",
  ],
} as const;

export function openApiDocument(): Record<string, unknown> {
  const schemas = new SchemaCollector();
  const shared: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const op: OperationSpec = operations[route.id];
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operationObject(route, op, schemas, shared);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'tickfeed',
      version: '0.2.0',
      description,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'Where this document was served from.' }],
    paths,
    components: {
      securitySchemes: {
        jwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A JWT from the deployment's issuer (its Cognito user pool, or `jwtIssuer`) for its audience; `sub` is the caller's user id. " +
            `The scope \`${ADMIN_SCOPE}\` (in the \`scope\` claim) marks the product's backend: it may read rollups and anyone's activity window, ` +
            'post as another `actor` and post the protected verbs. Operations that require it name it in their security requirement.',
        },
      },
      responses: Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b))),
      schemas: schemas.components(),
    },
  };
}

function operationObject(route: RouteDef, op: OperationSpec, schemas: SchemaCollector, shared: Record<string, unknown>) {
  const problem = schemas.schemaOf(problemSchema, 'output');
  const gateway = schemas.schemaOf(gatewayMessageSchema, 'output');
  const sharedRef = (name: string, response: unknown) => {
    shared[name] = response;
    return { $ref: `#/components/responses/${name}` };
  };
  const problemResponse = (text: string) => ({ description: text, content: { [PROBLEM_CONTENT_TYPE]: { schema: problem } } });

  const responses: Responses = {};
  for (const [status, r] of Object.entries(op.responses)) {
    responses[status] = {
      description: r.description,
      ...(r.headers && {
        headers: Object.fromEntries(Object.entries(r.headers).map(([name, text]) => [name, { description: text, required: true, schema: { type: 'string' } }])),
      }),
      ...(r.schema && { content: { 'application/json': { schema: schemas.schemaOf(r.schema, 'output') } } }),
    };
  }
  for (const [status, text] of Object.entries(op.problems ?? {})) responses[status] = problemResponse(text);
  if (route.auth) {
    responses[401] = sharedRef('Unauthorized', {
      description:
        "No valid token: missing, expired, wrongly signed or for another audience (the authorizer's `GatewayMessage`), or a `sub` that is not a valid user id (problem+json).",
      content: { 'application/json': { schema: gateway }, [PROBLEM_CONTENT_TYPE]: { schema: problem } },
    });
  }
  if (route.scopes?.length) {
    // Only admin access sets scopes, and the function checks it too (handler.ts): a problem+json 403 as well.
    const text = [
      `A token without the ${route.scopes.map((s) => `\`${s}\``).join(' or ')} scope (the authorizer's \`GatewayMessage\`).`,
      'The handler checks the scope too (problem+json), should the route ever be deployed without it.',
      op.problems?.[403],
    ];
    responses[403] = {
      description: text.filter(Boolean).join(' '),
      content: { 'application/json': { schema: gateway }, [PROBLEM_CONTENT_TYPE]: { schema: problem } },
    };
  }
  if (op.body) {
    const tooLarge = (bytes: number) => ({
      description: `A body over ${bytes} bytes (problem+json; over 10 MB, API Gateway's \`GatewayMessage\`).`,
      content: { [PROBLEM_CONTENT_TYPE]: { schema: problem }, 'application/json': { schema: gateway } },
    });
    responses[413] = op.bodyBytes === undefined ? sharedRef('PayloadTooLarge', tooLarge(LIMITS.bodyBytes)) : tooLarge(op.bodyBytes);
    responses[415] = sharedRef('UnsupportedMediaType', problemResponse('The body is not `application/json` (UTF-8).'));
  }
  for (const [status, [name, text]] of Object.entries(GATEWAY_ANSWERS)) {
    responses[status] = sharedRef(name, {
      description: text,
      headers: { 'Retry-After': { description: "Seconds to wait before retrying (the function's answers).", required: false, schema: { type: 'string' } } },
      content: { 'application/json': { schema: gateway }, [PROBLEM_CONTENT_TYPE]: { schema: problem } },
    });
  }
  responses[500] = sharedRef('InternalServerError', problemResponse('An unexpected failure: `about:blank`, nothing more said.'));

  return {
    operationId: route.id,
    summary: op.summary,
    ...(op.description && { description: op.description }),
    security: route.auth ? [{ jwt: [...(route.scopes ?? [])] }] : [],
    ...parametersAndBody(route, op, schemas),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  };
}

function parametersAndBody(route: RouteDef, op: OperationSpec, schemas: SchemaCollector) {
  const templated = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const pathParams = parametersOf('path', op.path, schemas);
  const named = pathParams.map((p) => p.name);
  if (templated.join() !== named.join()) {
    throw new Error(`${routeKey(route)}: the path names {${templated.join('}, {')}}, its schema ${named.join(', ') || 'nothing'}`);
  }
  const headers = Object.entries(op.requestHeaders ?? {}).map(([name, text]) => ({
    name,
    in: 'header',
    required: false,
    description: text,
    schema: { type: 'string' },
  }));
  const parameters = [...pathParams, ...parametersOf('query', op.query, schemas), ...headers];
  return {
    ...(parameters.length > 0 && { parameters }),
    ...(op.body && {
      requestBody: {
        required: !op.bodyOptional,
        description: `JSON, at most ${op.bodyBytes ?? LIMITS.bodyBytes} bytes.`,
        content: Object.fromEntries((op.bodyTypes ?? ['application/json']).map((type) => [type, { schema: schemas.schemaOf(op.body!, 'input') }])),
      },
    }),
  };
}

/** One parameter per field of a path or query schema, its description lifted to the parameter. */
function parametersOf(where: 'path' | 'query', schema: OperationSpec['path'], schemas: SchemaCollector) {
  if (!schema) return [];
  const object = schemas.schemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  if (!object.properties) throw new Error(`a ${where} schema must be a plain z.object (not named, not wrapped)`);
  return Object.entries(object.properties).map(([name, { description: text, ...fieldSchema }]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    ...(typeof text === 'string' && { description: text }),
    schema: fieldSchema,
  }));
}
