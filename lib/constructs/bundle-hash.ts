/**
 * The asset hash of a function's bundle, from everything the bundle is built from: the function
 * code and the shared definitions it imports (functions/, lib/defs/), the lockfile (the versions of
 * every dependency bundled in), tsconfig.json, and the function's entry and bundling options.
 * Known before bundling, so a cloud assembly that already holds the asset (`cdk.out/asset.<hash>`)
 * is not bundled again — a second `cdk synth` of unchanged code skips esbuild — while any change
 * to an input is a new hash, hence a new bundle.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const INPUT_DIRS = ['functions', 'lib/defs'];
const INPUT_FILES = ['package-lock.json', 'tsconfig.json'];

let treeDigest: { root: string; digest: string } | undefined;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The digest of every input file's path and bytes (once per process: a synth reads them once). */
function inputsDigest(root: string): string {
  if (treeDigest?.root === root) return treeDigest.digest;
  const hash = createHash('sha256');
  const files = [...INPUT_DIRS.flatMap((d) => filesUnder(join(root, d))), ...INPUT_FILES.map((f) => join(root, f))].sort();
  for (const file of files) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  treeDigest = { root, digest: hash.digest('hex') };
  return treeDigest.digest;
}

export function bundleAssetHash(root: string, entry: string, bundling: unknown): string {
  return createHash('sha256').update(inputsDigest(root)).update(entry).update(JSON.stringify(bundling)).digest('hex');
}
