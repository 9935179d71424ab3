/**
 * The feed contract's page on the wire: services page by `last` (platform/dynamo/query.ts `Page`,
 * absent when nothing more remains); the API answers `lastRangeKey`, null at the end, which a
 * client passes back as `before`.
 */
import type { Page } from '../platform/dynamo/query.js';

export const feedPage = <T>({ items, last }: Page<T, string>): { items: T[]; lastRangeKey: string | null } => ({ items, lastRangeKey: last ?? null });
