/**
 * The item tables of docs/data-model.md, generated from functions/model/item-kinds.ts: one table
 * per table (and one for the versions partition), each between its markers. `npm run docs`
 * rewrites them; test/unit/docs.test.ts fails when the file is stale.
 */
import { type ItemTable, itemKinds } from '../functions/model/item-kinds.js';
import type { DocSection } from './docs-markers.js';

const TABLES: readonly ItemTable[] = ['feed', 'graph', 'stats', 'limits', 'meta'];
/** The markdown table of one table's items; the feed table keys by a Number `rk`, the others by `sk`. */
export function itemTable(table: ItemTable): string {
  const kinds = itemKinds.filter((k) => k.table === table);
  const owner = (o: string) => `\`${o}\``;
  if (table === 'feed') {
    return [
      '| item | `pk` | `rk` | attributes | written by |',
      '|---|---|---|---|---|',
      ...kinds.map((k) => `| ${k.item} | ${k.pk} | ${k.sk} | ${k.attributes} | ${owner(k.owner)} |`),
    ].join('\n');
  }
  return [
    '| item | `pk` / `sk` | attributes | written by |',
    '|---|---|---|---|',
    ...kinds.map((k) => `| ${k.item} | ${k.pk} / ${k.sk} | ${k.attributes} | ${owner(k.owner)} |`),
  ].join('\n');
}

export const itemSections: readonly DocSection[] = TABLES.map((table) => ({
  page: 'docs/data-model.md',
  name: `items:${table}`,
  body: () => itemTable(table),
}));
