/**
 * Listening TCP sockets of this machine, read from /proc/net/tcp and /proc/net/tcp6 (Linux), and
 * the socket inodes a process holds (/proc/<pid>/fd): what `ss -ltnp` shows, without needing `ss`.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface Listener {
  /** The bound address as text: `127.0.0.1`, `0.0.0.0`, `::`, `::1`, `::ffff:127.0.0.1`. */
  readonly address: string;
  readonly port: number;
  readonly inode: string;
}

const LISTEN = '0A';

/** One 32-bit word of /proc/net/tcp* (host byte order, little-endian here) → its 4 address bytes. */
const wordBytes = (hex: string): number[] => [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16));

function addressOf(hex: string): string {
  if (hex.length === 8) return wordBytes(hex).join('.');
  const bytes = [0, 8, 16, 24].flatMap((i) => wordBytes(hex.slice(i, i + 8)));
  const isMapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (isMapped) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  if (groups.slice(0, 7).every((g) => g === 0)) return groups[7] === 0 ? '::' : `::${groups[7]!.toString(16)}`;
  return groups.map((g) => g.toString(16)).join(':'); // uncompressed: enough to tell loopback from not
}

export function listeners(): Listener[] {
  const out: Listener[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== LISTEN) continue;
      const [addr, port] = cols[1]!.split(':');
      out.push({ address: addressOf(addr!), port: parseInt(port!, 16), inode: cols[9]! });
    }
  }
  return out;
}

/** Socket inodes held open by `pid`. */
export function socketInodesOf(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      /* closed meanwhile */
    }
  }
  return inodes;
}

/** 127.0.0.0/8, ::1 or an IPv4-mapped 127.x address. */
export const isLoopback = (address: string): boolean => /^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address);
