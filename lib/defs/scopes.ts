/**
 * The one OAuth scope tickfeed knows. Tokens carrying it are the product's own backend (or an
 * operator): they may read rollups and anyone's activity window, post as another actor and post
 * the protected verbs. End users' tokens never carry it. In AWS it is a Cognito resource-server
 * scope (identifier `tickfeed`, scope `admin`); an external issuer (`jwtIssuer`) must issue the
 * same scope name. Tokens carry scopes in the `scope` claim, space-separated.
 */
export const RESOURCE_SERVER_ID = 'tickfeed';
export const ADMIN_SCOPE_NAME = 'admin';
export const ADMIN_SCOPE = `${RESOURCE_SERVER_ID}/${ADMIN_SCOPE_NAME}` as const;

/**
 * The scopes of a token from its `scope` claim (or `scp`), as the authorizer passes claims on:
 * a space-separated string, or an array rendered as `[a b]` (API Gateway stringifies array claims).
 */
export function scopesOf(claims: Readonly<Record<string, unknown>> | undefined): string[] {
  const raw = claims?.scope ?? claims?.scp;
  const text = Array.isArray(raw) ? raw.join(' ') : typeof raw === 'string' ? raw.replace(/^\[(.*)\]$/s, '$1') : '';
  return text.split(/\s+/).filter((s) => s !== '');
}

/** Whether a token with `scopes` passes a route requiring any of `required` (API Gateway's rule). */
export const hasAnyScope = (scopes: readonly string[], required: readonly string[]): boolean => required.some((s) => scopes.includes(s));
