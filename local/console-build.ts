/**
 * Building the web console (local/console/, a Vite project) when its build is missing or older
 * than its sources: `npm start` and the tests' global setup call `ensureConsoleBuilt()`, `npm ci`
 * builds it through the root `prepare` script (`npm run console:build`, which also typechecks).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const consoleRoot = resolve(import.meta.dirname, 'console');
export const consoleDist = join(consoleRoot, 'dist');
/** The client package's build: the console bundles it, so a rebuilt client means a stale console. */
const clientDist = resolve(import.meta.dirname, '..', 'client', 'dist');

/** Builds the console unless its index.html is newer than every source file; says which it did. */
export async function ensureConsoleBuilt(): Promise<'up to date' | 'built'> {
  const built = join(consoleDist, 'index.html');
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime([consoleRoot, clientDist])) return 'up to date';
  // Loaded only when needed: `npm start` on an up-to-date build does not pay for Vite.
  const { build } = await import('vite');
  await build({ configFile: join(consoleRoot, 'vite.config.ts'), logLevel: 'warn' });
  return 'built';
}

function newestMtime(dirs: string[]): number {
  let newest = 0;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (path === consoleDist || entry.name === 'node_modules') continue;
      if (entry.isDirectory()) visit(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) visit(dir);
  return newest;
}
