import type { APIGatewayProxyEventV2, APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** An HTTP API (payload 2.0) event behind the JWT authorizer. */
export type AuthedEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
/** An HTTP API (payload 2.0) event of an unauthenticated route. */
export type PublicEvent = APIGatewayProxyEventV2;
export type HttpEvent = AuthedEvent | PublicEvent;
export type HttpResult = APIGatewayProxyStructuredResultV2;
