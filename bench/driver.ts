/**
 * The bench's load drivers run as a SECOND process, so the load generator does not share an event
 * loop with the stack it measures: the plan goes in as JSON on stdin, the result comes back as the
 * last line of stdout, one JSON object.
 */
import { spawn } from 'node:child_process';

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
