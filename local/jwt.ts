/**
 * The local stand-in for the HTTP API's JWT authorizer: an ES256 key pair kept in the data
 * directory, tokens minted by `npm run token`, and verification with the same checks API
 * Gateway applies (signature, issuer, audience, exp/nbf).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, jwtVerify, SignJWT } from 'jose';

export const LOCAL_ISSUER = 'https://tickfeed.local/issuer';
export const LOCAL_AUDIENCE = 'tickfeed-local';
const ALG = 'ES256';

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
  readonly expiresIn?: string | number;
  readonly audience?: string;
  readonly issuer?: string;
  readonly claims?: JWTPayload;
}

/** A bearer token for `sub`, accepted by the local API. */
export async function mintToken(keys: LocalKeys, sub: string, opts: MintOptions = {}): Promise<string> {
  const key = await importJWK(keys.privateJwk, ALG);
  return new SignJWT({ ...opts.claims, token_use: 'access' })
    .setProtectedHeader({ alg: ALG })
    .setSubject(sub)
    .setIssuer(opts.issuer ?? LOCAL_ISSUER)
    .setAudience(opts.audience ?? LOCAL_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(opts.expiresIn ?? '12h')
    .sign(key);
}

export type JwtVerifier = (token: string) => Promise<JWTPayload>;

export async function createVerifier(keys: LocalKeys): Promise<JwtVerifier> {
  const key = await importJWK(keys.publicJwk, ALG);
  return async (token) =>
    (await jwtVerify(token, key, { issuer: LOCAL_ISSUER, audience: LOCAL_AUDIENCE, algorithms: [ALG] })).payload;
}
