/**
 * The token a personalized feed generator (and one that takes interactions) receives: an HS256 JWT
 * signed with the definition's own secret, naming the reader (`sub`) and the feed (`aud`:
 * `tickfeed:feed:<feedId>`), valid READER_TOKEN_SECONDS. The generator checks it with the secret its
 * PUT answered; a token for one feed is refused by another's generator, and it grants nothing in
 * tickfeed's API (whose tokens its JWT authorizer checks with other keys).
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { READER_TOKEN_SECONDS } from '../../model/feed-generator.js';

export const newGeneratorSecret = (): string => randomBytes(32).toString('base64url');

export const generatorAudience = (feedId: string): string => `tickfeed:feed:${feedId}`;

export async function readerToken(secret: string, feedId: string, reader: string, nowMs: number): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('tickfeed')
    .setSubject(reader)
    .setAudience(generatorAudience(feedId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + READER_TOKEN_SECONDS)
    .sign(Buffer.from(secret, 'base64url'));
}
