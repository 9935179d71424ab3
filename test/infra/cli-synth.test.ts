/**
 * `npx cdk synth` as a user runs it: through the CDK CLI, which resolves an environment for the
 * app (us-east-1 when nothing is configured, the user's region, an account where credentials
 * exist) — unlike the in-process synth of the other infrastructure tests, which builds an
 * environment-agnostic stack. Each run bundles every function and runs cdk-nag (bin/app.ts); a
 * finding fails the CLI. No AWS call is made: no credentials are configured, so nothing is looked
 * up, and synth needs none.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '..', '..');
/** CloudFormation's limit on resources per stack. */
const CLOUDFORMATION_RESOURCE_LIMIT = 500;
/** CloudFormation's limit on a template uploaded through S3 (the CDK bootstrap bucket). */
const TEMPLATE_BYTES_LIMIT = 1_000_000;

/** The caller's environment without any AWS or CDK setting: a machine where nothing is configured. */
function unconfiguredEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(AWS_|CDK_)/.test(k)));
  return {
    ...env,
    // No profile, no credentials file: what a CI runner or a fresh laptop has.
    AWS_CONFIG_FILE: join(tmpdir(), 'tickfeed-no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(tmpdir(), 'tickfeed-no-aws-credentials'),
    // This sandbox has no route to an instance metadata service; waiting on it only costs time.
    AWS_EC2_METADATA_DISABLED: 'true',
    CI: 'true',
  };
}

interface Template {
  Resources: Record<string, { Type: string; Properties?: { PolicyDocument?: unknown } }>;
}

/**
 * One cloud assembly directory for the three runs, as a user's `cdk.out`: the first bundles every
 * function, the others find the bundles of unchanged code there (lib/constructs/bundle-hash.ts).
 */
const outdir = mkdtempSync(join(tmpdir(), 'tickfeed-cli-synth-'));

function cliSynth(extraEnv: Record<string, string>): { status: number | null; output: string; template: Template; bytes: number } {
  const run = spawnSync('npx', ['cdk', 'synth', '--no-notices', '-q', '-o', outdir], {
    cwd: repoRoot,
    env: { ...unconfiguredEnv(), ...extraEnv },
    encoding: 'utf8',
    timeout: 240_000,
  });
  const output = `${run.stdout}\n${run.stderr}`;
  if (run.status !== 0) return { status: run.status, output, template: { Resources: {} }, bytes: 0 };
  const text = readFileSync(join(outdir, 'Tickfeed.template.json'), 'utf8');
  return { status: run.status, output, template: JSON.parse(text) as Template, bytes: Buffer.byteLength(text) };
}

const CASES: { name: string; env: Record<string, string>; region: string; account?: string }[] = [
  { name: 'no region configured', env: {}, region: 'us-east-1' },
  { name: 'AWS_REGION=eu-west-1', env: { AWS_REGION: 'eu-west-1' }, region: 'eu-west-1' },
  {
    name: 'AWS_REGION=ap-southeast-2 CDK_DEFAULT_ACCOUNT=123456789012',
    env: { AWS_REGION: 'ap-southeast-2', CDK_DEFAULT_ACCOUNT: '123456789012' },
    region: 'ap-southeast-2',
    account: '123456789012',
  },
];

describe('npx cdk synth through the CDK CLI', { timeout: 300_000 }, () => {
  it.each(CASES)('passes cdk-nag with $name, in the environment the CLI resolved', ({ env, region, account }) => {
    const { status, output, template, bytes } = cliSynth(env);
    expect(status, output.slice(-4000)).toBe(0);
    expect(output).not.toMatch(/AwsSolutions-|Synthesis finished with errors/);

    // The stack really was built in that environment: the realtime senders' grant names it.
    const policies = JSON.stringify(Object.values(template.Resources).filter((r) => r.Type === 'AWS::IAM::Policy'));
    expect(policies).toContain(`:execute-api:${region}:`);
    if (account) expect(policies).toContain(`:${region}:${account}:`);

    const resources = Object.keys(template.Resources).length;
    console.log(
      `cdk synth (${region}${account ? `, ${account}` : ''}): ${resources} resources of CloudFormation's ${CLOUDFORMATION_RESOURCE_LIMIT}, template ${bytes} bytes`,
    );
    expect(resources).toBeLessThan(CLOUDFORMATION_RESOURCE_LIMIT);
    // Over 51,200 bytes a template is uploaded through the bootstrap bucket, whose limit is 1 MB.
    expect(bytes).toBeLessThan(TEMPLATE_BYTES_LIMIT);
  });
});
