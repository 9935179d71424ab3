/**
 * The HTTP API: one route per shared route definition (JWT authorizer where `auth`), a `$default`
 * route for problem+json 404/405, JSON access logs and stage throttling.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { type DeploymentSettings, defaultRoute, type FunctionId, routes } from '../defs/index.js';
import type { JwtTrust } from './auth.js';

export function createHttpApi(
  scope: Construct,
  fns: Record<FunctionId, NodejsFunction>,
  trust: JwtTrust,
  settings: Pick<DeploymentSettings, 'routeThrottles'> = { routeThrottles: {} },
): apigw.HttpApi {
  const integrations = new Map<FunctionId, HttpLambdaIntegration>();
  const integrationFor = (id: FunctionId) => {
    let integration = integrations.get(id);
    if (!integration) integrations.set(id, (integration = new HttpLambdaIntegration(`${id}Integration`, fns[id])));
    return integration;
  };
  const authorizer = new HttpJwtAuthorizer('JwtAuthorizer', trust.issuer, { jwtAudience: trust.audience });

  const api = new apigw.HttpApi(scope, 'Api', {
    apiName: 'tickfeed',
    defaultIntegration: integrationFor(defaultRoute.fn),
    createDefaultStage: false,
  });
  const accessLogs = new logs.LogGroup(scope, 'ApiAccessLogs', {
    retention: logs.RetentionDays.THREE_MONTHS,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const stage = new apigw.HttpStage(scope, 'DefaultStage', {
    httpApi: api,
    stageName: '$default',
    autoDeploy: true,
    throttle: { rateLimit: 1000, burstLimit: 2000 },
    accessLogSettings: {
      destination: new apigw.LogGroupLogDestination(accessLogs),
      format: AccessLogFormat.custom(
        JSON.stringify({
          requestId: '$context.requestId',
          ip: '$context.identity.sourceIp',
          requestTime: '$context.requestTime',
          routeKey: '$context.routeKey',
          status: '$context.status',
          latency: '$context.integrationLatency',
          responseLength: '$context.responseLength',
          authError: '$context.authorizer.error',
        }),
      ),
    },
  });
  // Per-route throttles (cdk.json context `routeThrottles`, validated in lib/defs/deployment.ts);
  // every other route keeps the stage default above.
  const routeSettings = Object.fromEntries(
    Object.entries(settings.routeThrottles).map(([key, t]) => [key, { ThrottlingRateLimit: t.rateLimit, ThrottlingBurstLimit: t.burstLimit }]),
  );
  if (Object.keys(routeSettings).length) (stage.node.defaultChild as apigw.CfnStage).routeSettings = routeSettings;
  for (const route of routes) {
    const added = api.addRoutes({
      path: route.path,
      methods: [apigw.HttpMethod[route.method]],
      integration: integrationFor(route.fn),
      authorizer: route.auth ? authorizer : undefined,
      // Per-route scopes (lib/defs/routes.ts): the authorizer answers 403 without one of them.
      authorizationScopes: route.auth && route.scopes?.length ? [...route.scopes] : undefined,
    });
    // A stage's route settings name routes by key: the routes must exist before the stage.
    if (routeSettings[`${route.method} ${route.path}`]) stage.node.addDependency(...added);
  }
  return api;
}
