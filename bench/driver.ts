/**
 * The bench's load drivers run as a SECOND process, so the load generator does not share an event
 * loop with the stack it measures: the plan goes in as JSON on stdin, the result comes back as the
 * last line of stdout, one JSON object.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Runs `script` (a .ts file, through tsx) with `plan` on its stdin; resolves with its result line. */
export function runDriver<T>(script: string, plan: unknown): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`${script} exited ${code}: ${out.slice(0, 300)}`));
      resolvePromise(JSON.parse(line) as T);
    });
    child.stdin.end(JSON.stringify(plan));
  });
}

/** In a driver: the plan its parent sent. */
export async function readPlan<T>(): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}

/**
 * A driver kept running between requests, so settings that live in separate processes (each with its
 * own stack) can take turns on the machine: each `ask` sends one JSON line on its stdin and resolves
 * with the next answer it prints. Between its turns a session is paused: its process group (the
 * driver, its DynamoDB Local, anything else it started) is stopped (SIGSTOP), so an idle stack's
 * pollers take no share of the CPU another setting is measured on, and its own jobs that come due
 * meanwhile run in its next turn. `end` resumes it, closes its stdin and waits for it to exit.
 */
export interface DriverSession {
  ask<T>(request: unknown): Promise<T>;
  pause(): void;
  resume(): void;
  end(): Promise<void>;
}

/** Marks an answer among whatever else the driver prints (its stack's logs, say). */
const ANSWER = '@answer ';

/** Sessions paused now: resumed if this process exits, so none is left stopped. */
const paused = new Set<number>();
process.once('exit', () => paused.forEach((pgid) => process.kill(-pgid, 'SIGCONT')));

export function startSession(script: string): DriverSession {
  // A process group of its own (detached), so a pause stops everything it started.
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
  const pgid = child.pid!;
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  const exited = new Promise<number | null>((resolveExit) => child.on('exit', resolveExit));
  let failure: Error | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith(ANSWER)) waiting.shift()?.resolve(line.slice(ANSWER.length));
  });
  void exited.then((code) => {
    paused.delete(pgid);
    failure = new Error(`${script} exited ${code}`);
    waiting.splice(0).forEach((w) => w.reject(failure!));
  });
  const signal = (name: 'SIGSTOP' | 'SIGCONT') => {
    if (!failure) process.kill(-pgid, name);
  };
  const session: DriverSession = {
    ask<T>(request: unknown) {
      if (failure) return Promise.reject(failure);
      const answer = new Promise<string>((resolve, reject) => waiting.push({ resolve, reject }));
      child.stdin.write(`${JSON.stringify(request)}\n`);
      return answer.then((line) => JSON.parse(line) as T);
    },
    pause() {
      signal('SIGSTOP');
      paused.add(pgid);
    },
    resume() {
      signal('SIGCONT');
      paused.delete(pgid);
    },
    async end() {
      session.resume();
      child.stdin.end();
      await exited;
    },
  };
  return session;
}

/** In a session's driver: its requests, one parsed line each, until the parent ends it. */
export async function* sessionRequests<T>(): AsyncGenerator<T> {
  for await (const line of createInterface({ input: process.stdin })) if (line.trim()) yield JSON.parse(line) as T;
}

/** In a session's driver: the answer to the request it is on. */
export const answer = (value: unknown) => process.stdout.write(`${ANSWER}${JSON.stringify(value)}\n`);
