/**
 * DynamoDB Local is a Java program: find `java` (17+) and `javac` (its loopback launcher is compiled
 * once, local/dynamodb-local.ts) or explain in one line what is missing.
 */
import { spawnSync } from 'node:child_process';

export class JavaMissingError extends Error {
  constructor(detail: string) {
    super(
      `tickfeed needs a Java 17 (or newer) JDK on PATH to run DynamoDB Local (${detail}). ` +
        'Install it, e.g. `apt-get install -y openjdk-17-jdk-headless` or `brew install openjdk@17`.',
    );
    this.name = 'JavaMissingError';
  }
}

/** Returns the Java major version, or throws JavaMissingError. */
export function assertJava(minMajor = 17): number {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (out.error) throw new JavaMissingError('`java` was not found');
  const text = `${out.stderr}${out.stdout}`;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(text);
  if (!match) throw new JavaMissingError('`java -version` printed no version');
  // Java 8 and older report "1.8"; 9+ report the major first.
  const major = match[1] === '1' ? Number(match[2]) : Number(match[1]);
  if (major < minMajor) throw new JavaMissingError(`found Java ${major}`);
  if (spawnSync('javac', ['-version']).error) throw new JavaMissingError('`javac` was not found: a JRE alone cannot compile the loopback launcher');
  return major;
}
