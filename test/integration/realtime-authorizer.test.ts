/**
 * The deployed path of a WebSocket connect, which the local realtime API short-cuts with its own
 * verifier: the `$connect` authorizer Lambda (functions/handlers/realtime-authorizer.ts) against an
 * issuer whose JWKS it fetches over HTTP (a loopback server here, Cognito in AWS), and its answer
 * handed to the `$connect` route's handler the way API Gateway hands it on: the policy decides
 * whether the route runs, `principalId` (with the context keys) arrives in
 * `requestContext.authorizer`.
 */
import { createServer, type Server } from 'node:http';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_JWT_AUDIENCE_ENV, REALTIME_JWT_ISSUER_ENV } from '../../lib/defs/realtime.js';
import { generateLocalKeys, type LocalKeys, type MintOptions, mintToken } from '../../local/jwt.js';
import { uid } from '../support/ids.js';
import { connectionIdsOf } from '../support/realtime.js';

const AUDIENCES = ['app-client', 'backend-client'];
const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abcdef123/live/$connect';
let keys: LocalKeys;
let issuer: string;
let jwks: Server;
let jwksFetches = 0;

beforeAll(async () => {
  keys = await generateLocalKeys();
  jwks = createServer((req, res) => {
    if (req.url !== '/issuer/.well-known/jwks.json') return void res.writeHead(404).end();
    jwksFetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [{ ...keys.publicJwk, kid: 'k1', alg: 'ES256', use: 'sig' }] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(jwks.address() as { port: number }).port}/issuer`;
  // Read once, at the authorizer's first invocation (as at a Lambda cold start).
  process.env[REALTIME_JWT_ISSUER_ENV] = issuer;
  process.env[REALTIME_JWT_AUDIENCE_ENV] = AUDIENCES.join(',');
});

afterAll(async () => {
  await new Promise<void>((resolve) => jwks.close(() => resolve()));
});

const mint = (sub: string, opts: MintOptions = {}) => mintToken(keys, sub, { issuer, audience: AUDIENCES[0], ...opts });

async function authorize(token: string | undefined): Promise<APIGatewayAuthorizerResult> {
  const { handler } = await import('../../functions/handlers/realtime-authorizer.js');
  const event = {
    type: 'REQUEST',
    methodArn: METHOD_ARN,
    headers: { Host: 'abcdef123.execute-api.eu-west-1.amazonaws.com', Upgrade: 'websocket' },
    queryStringParameters: token === undefined ? {} : { token },
    requestContext: { routeKey: '$connect', eventType: 'CONNECT', connectionId: 'c1', stage: 'live' },
  } as unknown as APIGatewayRequestAuthorizerEvent;
  return handler(event);
}

const allowed = (r: APIGatewayAuthorizerResult) => r.policyDocument.Statement.every((s) => s.Effect === 'Allow');

/** Runs a route of the socket handler with the request context API Gateway builds after `result`. */
async function route(routeKey: '$connect' | '$disconnect', connectionId: string, result: APIGatewayAuthorizerResult) {
  const { handler } = await import('../../functions/handlers/realtime-socket.js');
  return handler({
    requestContext: {
      routeKey,
      eventType: routeKey === '$connect' ? 'CONNECT' : 'DISCONNECT',
      connectionId,
      stage: 'live',
      apiId: 'abcdef123',
      domainName: 'abcdef123.execute-api.eu-west-1.amazonaws.com',
      requestId: uid('req'),
      extendedRequestId: uid('ereq'),
      messageDirection: 'IN',
      connectedAt: Date.now(),
      requestTime: new Date().toUTCString(),
      requestTimeEpoch: Date.now(),
      identity: { sourceIp: '192.0.2.1' },
      // What API Gateway passes to every route of an authorized connection: the principal, the
      // authorizer's context keys, and its latency.
      authorizer: { ...result.context, principalId: result.principalId, integrationLatency: 12 },
    } as never,
    isBase64Encoded: false,
  });
}

describe('realtime $connect authorizer (the AWS path)', () => {
  it('allows a valid token as its sub with an IAM policy on the $connect method ARN, and $connect records the connection from it', async () => {
    const user = uid('rt-auth');
    const result = await authorize(await mint(user));
    expect(result).toEqual({
      principalId: user,
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: METHOD_ARN }] },
    });
    expect(jwksFetches).toBeGreaterThan(0); // the signature was checked against the issuer's JWKS

    const connectionId = uid('conn');
    expect(await route('$connect', connectionId, result)).toEqual({ statusCode: 200 });
    expect(await connectionIdsOf(user)).toEqual([connectionId]);
    expect(await route('$disconnect', connectionId, result)).toEqual({ statusCode: 200 });
    expect(await connectionIdsOf(user)).toEqual([]);
  });

  it('accepts a Cognito access token, whose audience is its client_id (no aud), for either app client', async () => {
    const user = uid('rt-cog');
    const { SignJWT, importJWK } = await import('jose');
    const cognitoStyle = await new SignJWT({ client_id: AUDIENCES[1], token_use: 'access', scope: 'tickfeed/admin' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setSubject(user)
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(await importJWK(keys.privateJwk, 'ES256'));
    const result = await authorize(cognitoStyle);
    expect(result.principalId).toBe(user);
    expect(allowed(result)).toBe(true);
  });

  it('denies (never throws, so a bad token is no function error) an expired, foreign, misaddressed, tampered or absent token', async () => {
    const user = uid('rt-deny');
    const now = Math.floor(Date.now() / 1000);
    const other = await generateLocalKeys();
    const tokens = {
      expired: await mint(user, { issuedAt: now - 7200, expiresIn: now - 60 }),
      otherIssuer: await mint(user, { issuer: 'https://issuer.example' }),
      otherAudience: await mint(user, { audience: 'someone-else' }),
      otherKey: await mintToken(other, user, { issuer, audience: AUDIENCES[0] }),
      tampered: (await mint(user)).slice(0, -4) + 'AAAA',
      notAJwt: 'not-a-jwt',
      absent: undefined,
    };
    for (const [name, token] of Object.entries(tokens)) {
      const result = await authorize(token);
      expect(result.policyDocument.Statement, name).toEqual([{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: METHOD_ARN }]);
      expect(result.principalId, name).not.toBe(user);
      expect(result.context, name).toBeUndefined();
    }
  });

  it('makes $connect refuse a connection that arrives without a principal (401), recording nothing', async () => {
    const connectionId = uid('conn');
    const { handler } = await import('../../functions/handlers/realtime-socket.js');
    const response = await handler({ requestContext: { routeKey: '$connect', connectionId } as never, isBase64Encoded: false });
    expect(response).toEqual({ statusCode: 401 });
  });
});
