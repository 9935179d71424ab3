/**
 * The realtime WebSocket API's routes (lib/defs/realtime.ts). `$connect` runs after the authorizer
 * accepted the token: it records the connection under the token's user (`authorizer.principalId`,
 * which API Gateway passes to every route of the connection); `$disconnect` forgets it; `$default`
 * — anything a client sends — is ignored (the channel is server → client).
 */
import type { APIGatewayEventWebsocketRequestContextV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { isValidUserId } from '../model/user-id.js';
import { logger } from '../platform/logger.js';
import { connect, disconnect } from '../services/realtime/connections.js';

/** API Gateway's WebSocket event, with what a Lambda authorizer adds to its request context. */
export interface RealtimeSocketEvent {
  readonly requestContext: APIGatewayEventWebsocketRequestContextV2 & { readonly authorizer?: { readonly principalId?: string } };
  readonly queryStringParameters?: Record<string, string | undefined>;
  readonly body?: string;
  readonly isBase64Encoded: boolean;
}

const ok: APIGatewayProxyResultV2 = { statusCode: 200 };

export async function handler(event: RealtimeSocketEvent): Promise<APIGatewayProxyResultV2> {
  const { routeKey, connectionId, authorizer } = event.requestContext;
  const userId = authorizer?.principalId;
  switch (routeKey) {
    case '$connect':
      // The authorizer refused anything else; checked again so no key is ever built from a bad id.
      if (typeof userId !== 'string' || !isValidUserId(userId)) return { statusCode: 401 };
      await connect({ userId, connectionId });
      return ok;
    case '$disconnect':
      if (typeof userId === 'string' && isValidUserId(userId)) await disconnect({ userId, connectionId });
      else logger.warn('realtime disconnect without a user', { connectionId });
      return ok;
    default:
      return ok;
  }
}
