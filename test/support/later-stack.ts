/**
 * `npm start` run "later": the whole local stack — the Node process and the DynamoDB Local JVM it
 * starts — under libfaketime (Debian's `faketime`), so both see the moved clock: stream records a
 * day old are trimmed, TTLs expire, windows pass. The stack is a child process on a data directory
 * of the test's; calls reach it over loopback, and tokens are minted on its clock (`clockAheadMs`).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import type { LocalEndpoints } from '../../local/endpoints.js';
import { loadOrCreateKeys } from '../../local/jwt.js';
import type { TestStack } from './stack-info.js';

const root = resolve(import.meta.dirname, '..', '..');

export interface LaterStack extends TestStack {
  readonly dynamoEndpoint: string;
  /** Every line the stack printed so far (stdout and stderr). */
  readonly lines: string[];
  stop(): Promise<void>;
}

/** libfaketime must be installed: the tests that move the clock say so instead of passing vacuously. */
export function assertFaketime(): void {
  try {
    execFileSync('faketime', ['-f', '+1h', 'true'], { stdio: 'ignore' });
  } catch {
    throw new Error('`faketime` was not found: tests that run the stack later need libfaketime (Debian: apt-get install faketime)');
  }
}

/**
 * Start `npm start` on `dataDir` with the clock at `clock` (libfaketime's syntax: `+25h` ahead of
 * now, `@2026-12-28 05:22:00` from that instant on), with `env` on top of the environment.
 */
export async function startLaterStack(opts: { dataDir: string; clock: string; env?: Record<string, string>; timeoutMs?: number }): Promise<LaterStack> {
  assertFaketime();
  const lines: string[] = [];
  const child = spawn('faketime', ['-f', opts.clock, process.execPath, '--import', 'tsx', join(root, 'local', 'main.ts')], {
    cwd: root,
    env: { ...process.env, ...opts.env, TICKFEED_DATA_DIR: opts.dataDir, PORT: '0', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const apiUrl = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`the later stack did not start within ${opts.timeoutMs ?? 120_000} ms:\n${lines.join('\n')}`)),
      opts.timeoutMs ?? 120_000,
    );
    const look = () => {
      const line = lines.find((l) => l.startsWith('tickfeed is running at '));
      if (line) {
        clearTimeout(timer);
        ok(line.slice('tickfeed is running at '.length).trim());
      }
    };
    child.stdout.on('data', look);
    child.on('exit', (code) => fail(new Error(`the later stack exited (${code}) before it started:\n${lines.join('\n')}`)));
  });
  const endpoints = JSON.parse(readFileSync(join(opts.dataDir, 'endpoints.json'), 'utf8')) as LocalEndpoints;
  // The stack's clock, read off its Date header (whole seconds: tokens allow for a minute).
  const date = (await fetch(`${apiUrl}/health`)).headers.get('date');
  const clockAheadMs = Date.parse(date!) - Date.now();
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: localRegion, credentials: localCredentials, endpoint: endpoints.dynamoEndpoint }), {
    unmarshallOptions: { wrapNumbers: true },
  });
  return {
    apiUrl,
    dynamoEndpoint: endpoints.dynamoEndpoint,
    keys: await loadOrCreateKeys(join(opts.dataDir, 'jwt-keys.json')),
    doc,
    tableNames: endpoints.tableNames,
    checkResponses: false,
    clockAheadMs,
    lines,
    stop: () => stopChild(child, doc),
  };
}

/**
 * Ctrl-C, as a user stops it (faketime passes it on; the stack stops its JVM). Resolves once every
 * process under it has gone — the next start on the data directory must find its files free — and
 * kills what has not gone within 30 s.
 */
async function stopChild(child: ChildProcess, doc: DynamoDBDocumentClient): Promise<void> {
  doc.destroy();
  const tree = [child.pid!, ...descendantsOf(child.pid!)];
  child.kill('SIGINT');
  const deadline = Date.now() + 30_000;
  while (tree.some(alive)) {
    if (Date.now() > deadline) for (const pid of tree.filter(alive)) process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const alive = (pid: number): boolean => {
  try {
    // A zombie (exited, not yet reaped by its parent) holds no files: it counts as gone.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

/** Every process under `pid` (the stack's Node process and its JVM), read off /proc. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const d of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parents.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const visit = (p: number) => {
    for (const [c, parent] of parents) {
      if (parent !== p) continue;
      out.push(c);
      visit(c);
    }
  };
  visit(pid);
  return out;
}
