import { ConfigError } from './errors.js';

/** Read a required env var once (at module load); a missing one fails the cold start loudly. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new ConfigError(name, 'is not set');
  return value;
}
