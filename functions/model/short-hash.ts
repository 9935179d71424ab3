/**
 * A fixed-length stand-in for an unbounded string inside a sort key (sort keys hold at most
 * 1,024 bytes; user ids alone may take that): 22 base64url characters of SHA-256, 132 bits. The
 * item keeps the string itself as an attribute wherever it must be read back.
 */
import { createHash } from 'node:crypto';

export const shortHash = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64url').slice(0, 22);
