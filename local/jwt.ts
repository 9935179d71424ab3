/**
 * The local stand-in for the HTTP API's JWT authorizer: an ES256 key pair kept in the data
 * directory, tokens minted by `npm run token`, and verification with the same checks API
 * Gateway applies (signature, issuer, audience, exp/nbf), plus: `exp` and `sub` are required, and
 * a token issued (`iat`) more than MAX_TOKEN_AGE ago, or with no `iat`, is refused.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, jwtVerify, SignJWT } from 'jose';

export const LOCAL_ISSUER = 'https://tickfeed.local/issuer';
export const LOCAL_AUDIENCE = 'tickfeed-local';
const ALG = 'ES256';
/** The oldest token the local authorizer accepts, by its `iat` (Cognito access tokens live ≤ 24 h). */
export const MAX_TOKEN_AGE = '24h';

export interface LocalKeys {
  readonly privateJwk: JWK;
  readonly publicJwk: JWK;
}

export async function generateLocalKeys(): Promise<LocalKeys> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  return { privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
}

/** Load the key pair from `file`, creating it (mode 600) on first use. */
export async function loadOrCreateKeys(file: string): Promise<LocalKeys> {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalKeys;
  const keys = await generateLocalKeys();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

export interface MintOptions {
  /** `exp`: a duration from now (`'12h'`, the default) or an absolute epoch second. */
  readonly expiresIn?: string | number;
  readonly audience?: string;
  readonly issuer?: string;
  /** OAuth scopes, written space-separated into the `scope` claim as Cognito does (e.g. `tickfeed/admin`). */
  readonly scope?: string | readonly string[];
  /** `iat` as an epoch second (default: now). */
  readonly issuedAt?: number;
  readonly claims?: JWTPayload;
}

/** A bearer token for `sub`, accepted by the local API. */
export async function mintToken(keys: LocalKeys, sub: string, opts: MintOptions = {}): Promise<string> {
  const key = await importJWK(keys.privateJwk, ALG);
  const scopes = opts.scope === undefined ? [] : typeof opts.scope === 'string' ? [opts.scope] : [...opts.scope];
  return new SignJWT({ ...opts.claims, token_use: 'access', ...(scopes.length ? { scope: scopes.join(' ') } : {}) })
    .setProtectedHeader({ alg: ALG })
    .setSubject(sub)
    .setIssuer(opts.issuer ?? LOCAL_ISSUER)
    .setAudience(opts.audience ?? LOCAL_AUDIENCE)
    .setIssuedAt(opts.issuedAt)
    .setExpirationTime(opts.expiresIn ?? '12h')
    .sign(key);
}

export type JwtVerifier = (token: string) => Promise<JWTPayload>;

/** Verifies signature, issuer, audience, `exp` (required), `nbf`, `sub` (required) and `iat` (required, ≤ max age). */
export async function createVerifier(keys: LocalKeys, opts: { maxTokenAge?: string | number } = {}): Promise<JwtVerifier> {
  const key = await importJWK(keys.publicJwk, ALG);
  return async (token) => {
    const { payload } = await jwtVerify(token, key, {
      issuer: LOCAL_ISSUER,
      audience: LOCAL_AUDIENCE,
      algorithms: [ALG],
      requiredClaims: ['exp', 'sub'],
      maxTokenAge: opts.maxTokenAge ?? MAX_TOKEN_AGE, // requires `iat`; refuses one in the future too
    });
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('the token has no subject');
    return payload;
  };
}
