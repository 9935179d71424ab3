/**
 * cdk-nag AwsSolutions findings we accept, each on the resources it is about (an acknowledgement
 * covers a construct and what it contains, nothing else) and with its reason. Everything else the
 * pack reports — including the same rule on any other resource — fails `cdk synth` and the
 * infrastructure test, which also fails on an acknowledgement that no longer suppresses anything.
 * The resources are found from the shared definitions (lib/defs), the same ones the constructs
 * are built from.
 */
import { type CfnElement, type Stack, Token, Validations } from 'aws-cdk-lib';
import { CfnRoute, HttpApi, WebSocketApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IConstruct } from 'constructs';
import { realtimeConstructIds } from './constructs/realtime.js';
import { constructId, defaultRoute, eventSources, functionList, type OperationId, type QueueId, REALTIME_STAGE, routeKey, routeSpecs } from './defs/index.js';

export interface NagAcknowledgement {
  /** The constructs the finding is accepted on (their children included). */
  readonly scopes: readonly IConstruct[];
  readonly id: string;
  readonly reason: string;
}

const constructName = (id: string) => constructId(id);

/**
 * The routes that are public by design — a deliberate list of operations, NOT derived from
 * `access: 'public'` in the route definitions: a new route without the authorizer is reported
 * (AwsSolutions-APIG4) until it is added here, with the reason below still true. Each is cheap:
 * its function reads no table.
 */
const PUBLIC_OPERATIONS: readonly OperationId[] = ['getHealth', 'getOpenApiDocument'];
export const PUBLIC_ROUTE_KEYS: readonly string[] = [...PUBLIC_OPERATIONS.map((id) => routeKey(routeSpecs[id])), defaultRoute.routeKey];

/**
 * The accepted findings of `stack`. `_feedTableArnToken` is unused since the feed table lost its
 * only index (byAuthor): no grant names `<feed table>/index/*` any more.
 */
export function nagAcknowledgements(stack: Stack, _feedTableArnToken?: string): NagAcknowledgement[] {
  const streams = eventSources.filter((s) => s.kind === 'stream');
  // Each function has a role of its own (lib/constructs/functions.ts): the grants live there.
  const streamConsumerRoles = [...new Set(streams.map((s) => s.fn))].map((id) => stack.node.findChild(`${constructName(id)}Role`));
  const onFailureQueues = [...new Set<QueueId>(streams.map((s) => s.onFailure))].map((id) => stack.node.findChild(`${constructName(id)}Queue`));

  const publicRouteKeys = new Set(PUBLIC_ROUTE_KEYS);
  // Both APIs have a `$default` route: a route belongs to the API it is built under.
  const publicRoutes = routesOf(stack, HttpApi).filter((r) => publicRouteKeys.has(r.routeKey));
  if (publicRoutes.length !== publicRouteKeys.size) {
    throw new Error(`nag: expected routes ${[...publicRouteKeys].join(', ')}, found ${publicRoutes.map((r) => r.routeKey).join(', ')}`);
  }
  // API Gateway accepts an authorizer on a WebSocket API's `$connect` only; every other route runs
  // on a connection that `$connect` authorized. `$connect` itself is never acknowledged.
  const connectionRoutes = routesOf(stack, WebSocketApi).filter((r) => r.routeKey !== '$connect');
  const realtimeApi = stack.node.findChild(realtimeConstructIds.api);
  const realtimeStage = stack.node.findChild(realtimeConstructIds.stage);
  const senders = functionList.filter((d) => d.realtime?.pushes).map((d) => d.id);
  const senderRoles = senders.map((id) => stack.node.findChild(`${constructName(id)}Role`));
  const connectionsArn = `arn:<AWS::Partition>:execute-api:${shownAs(stack.region, 'AWS::Region')}:${shownAs(stack.account, 'AWS::AccountId')}:<${stack.getLogicalId(realtimeApi.node.defaultChild as CfnElement)}>/${REALTIME_STAGE}/POST/@connections/*`;
  const userPool = stack.node.tryFindChild('Users'); // only when the stack creates its own pool

  return [
    {
      scopes: streamConsumerRoles,
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: `dynamodb:ListStreams, which CDK grants to the consumers of a DynamoDB stream (${streams.map((s) => s.fn).join(', ')}), exists only on "*".`,
    },
    {
      scopes: onFailureQueues,
      id: 'AwsSolutions-SQS3',
      reason: "The stream event sources' on-failure destination: it is the dead-letter target itself.",
    },
    {
      scopes: publicRoutes,
      id: 'AwsSolutions-APIG4',
      reason: `Public by design: ${[...publicRouteKeys].join(', ')} (health check, API description, problem+json 404/405 fallback); every other route has the JWT authorizer.`,
    },
    {
      scopes: connectionRoutes,
      id: 'AwsSolutions-APIG4',
      reason: `Realtime WebSocket routes ${connectionRoutes.map((r) => r.routeKey).join(', ')}: API Gateway runs a WebSocket API's authorizer on $connect only, once per connection (the JWT from ?token=); these routes ride that authorized connection and carry its principal.`,
    },
    {
      scopes: senderRoles,
      id: `AwsSolutions-IAM5[Resource::${connectionsArn}]`,
      reason: `The realtime senders (${senders.join(', ')}) post to connections whose ids exist only at run time: the grant is execute-api:ManageConnections for POST on this API's ${REALTIME_STAGE} stage @connections/{id}, no other API, stage, method or resource.`,
    },
    {
      scopes: [realtimeStage],
      id: 'AwsSolutions-APIG1',
      reason:
        "WebSocket stage access logs need API Gateway's account-wide CloudWatch role (AWS::ApiGateway::Account), a per-account setting this stack must not overwrite; every connect and disconnect is an invocation logged in realtimeSocket's log group, a refused token in the authorizer's, a failed send by its sender (PushFailures, alarmed). An operator with that role can add accessLogSettings to the stage.",
    },
    ...(userPool
      ? [{ scopes: [userPool], id: 'AwsSolutions-COG2', reason: 'MFA is optional (TOTP) for feed users; operators can require it per deployment.' }]
      : []),
  ];
}

/**
 * How cdk-nag spells a stack's region or account inside a finding: the pseudo parameter of an
 * environment-agnostic stack (`<AWS::Region>`), the literal where the CDK CLI resolved one
 * (`CDK_DEFAULT_REGION` is us-east-1 when nothing is configured; `CDK_DEFAULT_ACCOUNT` wherever
 * credentials exist). An acknowledgement must name the same text, so it follows the stack's env.
 */
function shownAs(value: string, pseudo: string): string {
  return Token.isUnresolved(value) ? `<${pseudo}>` : value;
}

/** The CfnRoutes built under an API of `kind` (HTTP or WebSocket). */
function routesOf(stack: Stack, kind: typeof HttpApi | typeof WebSocketApi): CfnRoute[] {
  return stack.node.findAll().filter((c): c is CfnRoute => c instanceof CfnRoute && c.node.scopes.some((s) => s instanceof kind));
}

export function acknowledgeNagFindings(stack: Stack, feedTableArnToken?: string): void {
  for (const ack of nagAcknowledgements(stack, feedTableArnToken)) {
    for (const scope of ack.scopes) Validations.of(scope).acknowledge({ id: ack.id, reason: ack.reason });
  }
}
