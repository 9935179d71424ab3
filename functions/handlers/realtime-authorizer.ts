/**
 * The realtime WebSocket API's `$connect` authorizer (REQUEST type, identity source
 * `route.request.querystring.token`: browsers cannot set headers on a WebSocket). It checks the
 * token as the HTTP API's JWT authorizer does — signature against the issuer's JWKS, `iss`, `exp`,
 * `nbf`, and the audience in `aud` or (Cognito access tokens) `client_id` — and allows the
 * connection as the token's `sub` (`principalId`, which API Gateway passes to every route of the
 * connection in `requestContext.authorizer`). A token it refuses gets a Deny policy, which API
 * Gateway answers with 403 at the upgrade; a missing token never reaches it (the identity source
 * is absent: API Gateway answers 401). Denying rather than throwing "Unauthorized" (401) keeps a
 * bad token from counting as a function error: every expired token would trip the Errors alarm.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { REALTIME_JWT_AUDIENCE_ENV, REALTIME_JWT_ISSUER_ENV } from '../../lib/defs/realtime.js';
import { isValidUserId } from '../model/user-id.js';
import { requireEnv } from '../platform/env.js';
import { logger } from '../platform/logger.js';

let trust: { issuer: string; audience: string[]; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;
function trusted() {
  if (!trust) {
    const issuer = requireEnv(REALTIME_JWT_ISSUER_ENV);
    trust = {
      issuer,
      audience: requireEnv(REALTIME_JWT_AUDIENCE_ENV).split(','),
      keys: createRemoteJWKSet(new URL(`${issuer.replace(/\/$/, '')}/.well-known/jwks.json`)),
    };
  }
  return trust;
}

/** The token's user, or undefined when API Gateway's JWT authorizer would refuse it. */
export async function verifiedUser(token: string | undefined): Promise<string | undefined> {
  if (!token) return undefined;
  const { issuer, audience, keys } = trusted();
  try {
    const { payload } = await jwtVerify(token, keys, { issuer, requiredClaims: ['exp', 'sub'] });
    const aud = [payload.aud ?? [], payload.client_id ?? []].flat().map(String);
    if (!aud.some((a) => audience.includes(a))) return undefined;
    return typeof payload.sub === 'string' && isValidUserId(payload.sub) ? payload.sub : undefined;
  } catch (error) {
    logger.info('realtime token refused', { reason: (error as Error).message });
    return undefined;
  }
}

/** The principal of a denied request (API Gateway requires one; no route ever sees it). */
export const DENIED_PRINCIPAL = 'denied';

export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const userId = await verifiedUser(event.queryStringParameters?.token);
  return {
    principalId: userId ?? DENIED_PRINCIPAL,
    policyDocument: {
      Version: '2012-10-17',
      // methodArn: this API's stage's $connect — the only route an authorizer runs on.
      Statement: [{ Action: 'execute-api:Invoke', Effect: userId ? 'Allow' : 'Deny', Resource: event.methodArn }],
    },
  };
}
