/** `npm test` runs this first: one clear line, instead of a stack trace from the test setup. */
import { assertJava, JavaMissingError } from './java.js';

try {
  assertJava();
} catch (error) {
  if (!(error instanceof JavaMissingError)) throw error;
  console.error(error.message);
  process.exit(1);
}
