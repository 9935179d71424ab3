/**
 * The rollup spec (config key `ROLLUPS`): a comma-separated list of `event_type:func(attribute)`
 * with func in sum/min/max, case-insensitive (seed 004's docs say `MAX`, its parser only `max`).
 * Every event type also gets a count, whether or not it appears here. Series names:
 * `event_type.count` and `event_type.attribute.func`, e.g. `game_finished.high_score.max`.
 *
 * @example parseRollupSpec('game_finished:MAX(high_score), purchase:sum(amount)')
 */
export type RollupFunc = 'sum' | 'min' | 'max';
/** How a series combines its rows: counts and sums add, min/max take the extreme. */
export type Combine = 'sum' | 'min' | 'max';

export interface RollupEntry {
  readonly eventType: string;
  readonly func: RollupFunc;
  readonly attribute: string;
  /** Series name, e.g. `game_finished.high_score.max`. */
  readonly name: string;
}

export interface RollupSpec {
  readonly entries: readonly RollupEntry[];
  /** Entries per event type, for the stream handler's lookups. */
  readonly byEventType: ReadonlyMap<string, readonly RollupEntry[]>;
}

/**
 * A transaction holds 100 items; one activity needs a claim, a count row and a window bucket
 * besides its attribute rollups, so an event type may have at most this many entries.
 */
export const MAX_ENTRIES_PER_EVENT_TYPE = 50;

const EVENT_TYPE = /^[A-Za-z0-9_.-]{1,100}$/;
const ATTRIBUTE = /^[A-Za-z0-9_-]{1,100}$/;
const ENTRY = /^([^:]+):\s*([A-Za-z]+)\s*\(\s*([^()]*?)\s*\)$/;

export const countSeries = (eventType: string) => `${eventType}.count`;

/** Parse a spec; throws an Error naming the first bad entry (position and text). */
export function parseRollupSpec(raw: string): RollupSpec {
  const entries: RollupEntry[] = [];
  const byEventType = new Map<string, RollupEntry[]>();
  if (raw.trim() === '') return { entries, byEventType };
  const parts = raw.split(',');
  parts.forEach((part, i) => {
    const text = part.trim();
    const bad = (why: string) => new Error(`entry ${i + 1} ${JSON.stringify(text)}: ${why}`);
    if (text === '') throw bad('is empty (stray comma?)');
    const match = ENTRY.exec(text);
    if (!match) throw bad('expected event_type:func(attribute), e.g. game_finished:max(high_score)');
    const [, rawType, rawFunc, attribute] = match as unknown as [string, string, string, string];
    const eventType = rawType.trim();
    const func = rawFunc.toLowerCase();
    if (!EVENT_TYPE.test(eventType)) throw bad(`event type ${JSON.stringify(eventType)} may use only A-Z a-z 0-9 _ . -`);
    if (func !== 'sum' && func !== 'min' && func !== 'max') throw bad(`func must be sum, min or max, got ${JSON.stringify(rawFunc)}`);
    if (!ATTRIBUTE.test(attribute)) throw bad(`attribute ${JSON.stringify(attribute)} may use only A-Z a-z 0-9 _ -`);
    const name = `${eventType}.${attribute}.${func}`;
    if (entries.some((e) => e.name === name)) throw bad(`duplicates an earlier entry (series ${name})`);
    const entry: RollupEntry = { eventType, func, attribute, name };
    entries.push(entry);
    const list = byEventType.get(eventType) ?? [];
    if (list.length >= MAX_ENTRIES_PER_EVENT_TYPE) throw bad(`more than ${MAX_ENTRIES_PER_EVENT_TYPE} rollups for ${eventType}`);
    byEventType.set(eventType, [...list, entry]);
  });
  return { entries, byEventType };
}

/**
 * How to combine a series' rows, from its name's last segment, or undefined if the name is not a
 * series name (`x.count`, `x.attr.sum|min|max`).
 */
export function combineOf(name: string): Combine | undefined {
  const parts = name.split('.');
  if (parts.length < 2 || parts.some((p) => p === '')) return undefined;
  const last = parts.at(-1)!;
  if (last === 'count') return 'sum';
  if (parts.length >= 3 && (last === 'sum' || last === 'min' || last === 'max')) return last;
  return undefined;
}
