/**
 * Activity id = `<rk>.<base64url(actor)>`: the key of the original in its author's timeline, so
 * GET and DELETE find it with one GetItem/UpdateItem and no index. Opaque to clients.
 * @example activityIdOf('alice', 9223372035079123456000123456789n) // '9223372035079123456000123456789.YWxpY2U'
 */
import { parseRangeKey } from './range-key.js';
import { MAX_USER_ID_BYTES } from './user-id.js';
import { textOfBase64url } from './base64url.js';

export function activityIdOf(actor: string, rk: bigint): string {
  return `${rk}.${Buffer.from(actor, 'utf8').toString('base64url')}`;
}

/** Decode an activity id; undefined for anything `activityIdOf` cannot have produced. */
export function parseActivityId(id: string): { actor: string; rk: bigint } | undefined {
  const dot = id.indexOf('.');
  if (dot <= 0) return undefined;
  const rkText = id.slice(0, dot);
  const rk = parseRangeKey(rkText);
  const encoded = id.slice(dot + 1);
  if (rk === undefined || rk === 0n || rk.toString() !== rkText || !/^[A-Za-z0-9_-]{1,1400}$/.test(encoded)) return undefined;
  const actor = textOfBase64url(encoded);
  if (actor === undefined || actor === '') return undefined;
  if (Buffer.byteLength(actor, 'utf8') > MAX_USER_ID_BYTES) return undefined;
  return { actor, rk };
}
