/**
 * Who issues the JWTs the HTTP API trusts: an existing OIDC issuer/audience from cdk.json context
 * (`jwtIssuer`, `jwtAudience`; it must issue the `tickfeed/admin` scope to the product's backend),
 * or by default a Cognito user pool of our own with two app clients:
 * - `ApiClient`, for end users' apps: SRP sign-in, no OAuth flows (no hosted UI, no callbacks);
 * - `BackendClient`, for the product's backend: the client-credentials flow (with a secret) and
 *   the resource-server scope `tickfeed/admin`, from the pool's token endpoint.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import { ADMIN_SCOPE_NAME, jwtContextKeys, RESOURCE_SERVER_ID } from '../defs/index.js';

export interface JwtTrust {
  readonly issuer: string;
  readonly audience: string[];
}

export function jwtTrust(scope: Construct): JwtTrust {
  const [issuerKey, audienceKey] = jwtContextKeys.contextKeys;
  const issuer = String(scope.node.tryGetContext(issuerKey) ?? '');
  const audience = String(scope.node.tryGetContext(audienceKey) ?? '');
  if (issuer && audience) return { issuer, audience: audience.split(',') };
  if (issuer || audience) throw new Error('cdk.json context: set both jwtIssuer and jwtAudience, or neither');

  const pool = new cognito.UserPool(scope, 'Users', {
    selfSignUpEnabled: false,
    signInAliases: { email: true },
    passwordPolicy: {
      minLength: 12,
      requireDigits: true,
      requireLowercase: true,
      requireUppercase: true,
      requireSymbols: true,
    },
    mfa: cognito.Mfa.OPTIONAL,
    mfaSecondFactor: { otp: true, sms: false },
    featurePlan: cognito.FeaturePlan.PLUS,
    standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
    accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const client = pool.addClient('ApiClient', {
    authFlows: { userSrp: true },
    disableOAuth: true, // users sign in with SRP: no code/implicit grant, no callback URLs
    accessTokenValidity: Duration.hours(1),
    idTokenValidity: Duration.hours(1),
  });

  const adminScope = new cognito.ResourceServerScope({
    scopeName: ADMIN_SCOPE_NAME,
    scopeDescription: 'The product backend: rollups, any activity window, posting as any actor and protected verbs',
  });
  const resourceServer = pool.addResourceServer('ApiResourceServer', {
    identifier: RESOURCE_SERVER_ID,
    userPoolResourceServerName: 'tickfeed API',
    scopes: [adminScope],
  });
  const backend = pool.addClient('BackendClient', {
    generateSecret: true,
    // No user sign-in (machine to machine): only the refresh-token flow CDK always lists, which
    // client-credentials tokens never use.
    authFlows: { userSrp: false },
    oAuth: {
      flows: { clientCredentials: true },
      scopes: [cognito.OAuthScope.resourceServer(resourceServer, adminScope)],
    },
    accessTokenValidity: Duration.hours(1),
  });
  // The token endpoint (https://<prefix>.auth.<region>.amazoncognito.com/oauth2/token) the
  // backend calls with its client id and secret.
  const domain = pool.addDomain('Domain', {
    cognitoDomain: { domainPrefix: `tickfeed-${Stack.of(scope).account}` },
  });

  new CfnOutput(scope, 'UserPoolId', { value: pool.userPoolId });
  new CfnOutput(scope, 'UserPoolClientId', { value: client.userPoolClientId });
  new CfnOutput(scope, 'BackendClientId', { value: backend.userPoolClientId });
  new CfnOutput(scope, 'TokenEndpoint', { value: `${domain.baseUrl()}/oauth2/token` });
  return {
    issuer: `https://cognito-idp.${Stack.of(scope).region}.amazonaws.com/${pool.userPoolId}`,
    // Cognito access tokens carry the app client in `client_id` (no `aud`); API Gateway checks it.
    audience: [client.userPoolClientId, backend.userPoolClientId],
  };
}
