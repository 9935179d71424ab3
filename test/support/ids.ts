/**
 * Unique ids for test data. Every test makes its users, authors and markers with `uid()`, so tests
 * sharing a stack (and test files running in parallel processes) never see each other's data.
 */
import { randomUUID } from 'node:crypto';

/** A unique id with a readable prefix, e.g. `alice-3f2a9c01b7d4` (random: unique across processes). */
export const uid = (prefix = 'u'): string => `${prefix}-${randomUUID().slice(0, 12)}`;
