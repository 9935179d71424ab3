/**
 * Recent-activity window settings (config keys ACTIVITY_BUCKET, ACTIVITY_SEGMENTS): their types
 * and parsers. Pure; read by `cdk synth`, `npm start` and the functions alike.
 */
import { parseDuration } from './durations.js';

export interface WindowConfig {
  readonly bucketMs: number;
  readonly buckets: number;
}

export interface Segments {
  /** Minimum activities over the full window (bucketMs × buckets) for `power`. */
  readonly power: number;
  /** Minimum for `casual`; fewer is `inactive`. */
  readonly casual: number;
}

/** Bucket size: a duration of at least one second. */
export function parseBucketSize(raw: string): number {
  const ms = parseDuration(raw);
  if (ms === undefined || ms < 1000) throw new Error(`expected a bucket size of at least 1s, got "${raw}"`);
  return ms;
}

/** `power=50,casual=1` (any order), power > casual ≥ 1. */
export function parseSegments(raw: string): Segments {
  const values: Record<string, number> = {};
  for (const part of raw.split(',')) {
    const match = /^\s*(power|casual)\s*=\s*(\d+)\s*$/i.exec(part);
    if (!match) throw new Error(`expected power=N,casual=M, got entry ${JSON.stringify(part.trim())}`);
    values[match[1]!.toLowerCase()] = Number(match[2]);
  }
  const { power, casual } = values;
  if (power === undefined || casual === undefined) throw new Error(`expected both power=N and casual=M, got "${raw}"`);
  if (casual < 1 || power <= casual) throw new Error(`expected power > casual ≥ 1, got "${raw}"`);
  return { power, casual };
}
