/**
 * The copy rule (functions/model/copy-rule.ts), as a table: for each set of facts about a reader
 * and a post, the roads, whether the post is shown, and whether a stored copy may exist. The rows
 * are the roads in and out of docs/lanes.md "who gets a copy", and the cases reviews found.
 */
import { describe, expect, it } from 'vitest';
import { authorPageCopies, authorRoadStores, boundReaches, type CopyFacts, decide, roadsOf, tagPageCopies } from '../../functions/model/copy-rule.js';

const base: CopyFacts = { reader: 'bob', post: { actor: 'alice', tags: [] }, authorPulled: false, tagFollows: new Map(), hidden: false };
const facts = (over: Partial<Omit<CopyFacts, 'post'>> & { post?: Partial<CopyFacts['post']> }): CopyFacts => ({
  ...base,
  ...over,
  post: { ...base.post, ...over.post },
});
const follows = { active: true, muted: false };
const push = (...tags: string[]) => new Map(tags.map((t) => [t, 'push' as const]));
const pull = (...tags: string[]) => new Map(tags.map((t) => [t, 'pull' as const]));

const table: [string, CopyFacts, { shown: boolean; stored: boolean }][] = [
  ['a stranger’s post: no road', facts({}), { shown: false, stored: false }],
  ['the reader’s own post', facts({ post: { actor: 'bob' } }), { shown: true, stored: true }],
  ['the reader’s own post, deleted', facts({ post: { actor: 'bob', deleted: true } }), { shown: false, stored: false }],
  ['a followed author', facts({ follow: follows }), { shown: true, stored: true }],
  ['a followed author, pulled: merged at read time', facts({ follow: follows, authorPulled: true }), { shown: true, stored: false }],
  ['an unfollowed author (gone edge)', facts({ follow: { active: false, muted: false } }), { shown: false, stored: false }],
  ['a muted follow', facts({ follow: { active: true, muted: true }, hidden: true }), { shown: false, stored: false }],
  ['a push-followed tag', facts({ post: { tags: ['x'] }, tagFollows: push('x') }), { shown: true, stored: true }],
  ['a pull-followed tag: merged at read time', facts({ post: { tags: ['x'] }, tagFollows: pull('x') }), { shown: true, stored: false }],
  ['a followed tag the post does not carry', facts({ post: { tags: ['y'] }, tagFollows: push('x') }), { shown: false, stored: false }],
  // Issue 40, case 1: the unfollow leaves the copy a push-followed tag still brings.
  [
    'unfollowed author, tag still followed',
    facts({ follow: { active: false, muted: false }, post: { tags: ['x'] }, tagFollows: push('x') }),
    { shown: true, stored: true },
  ],
  // Issue 40, cases 2 and 3: a mute or a block hides what a tag brings.
  ['tag-brought post of a muted author', facts({ post: { tags: ['x'] }, tagFollows: push('x'), hidden: true }), { shown: false, stored: false }],
  [
    'tag-brought post of a blocked (or blocking) author',
    facts({ post: { tags: ['x'] }, tagFollows: pull('x'), hidden: true }),
    { shown: false, stored: false },
  ],
  ['a hidden author followed too', facts({ follow: follows, post: { tags: ['x'] }, tagFollows: push('x'), hidden: true }), { shown: false, stored: false }],
  ['the reader’s own post, whatever they hid', facts({ post: { actor: 'bob', tags: ['x'] }, hidden: true }), { shown: true, stored: true }],
  ['a deleted post by every road', facts({ follow: follows, post: { tags: ['x'], deleted: true }, tagFollows: push('x') }), { shown: false, stored: false }],
  [
    'pulled author, push tag: the tag stores it',
    facts({ follow: follows, authorPulled: true, post: { tags: ['x'] }, tagFollows: push('x') }),
    { shown: true, stored: true },
  ],
  [
    'pulled author, pull tag: nothing stores it',
    facts({ follow: follows, authorPulled: true, post: { tags: ['x'] }, tagFollows: pull('x') }),
    { shown: true, stored: false },
  ],
];

describe('the copy rule', () => {
  it.each(table)('%s', (_, f, expected) => {
    expect(decide(f)).toEqual(expected);
  });

  it('names the roads that bring a post', () => {
    expect(
      roadsOf(
        facts({
          follow: follows,
          post: { tags: ['x', 'y'] },
          tagFollows: new Map([
            ['x', 'push'],
            ['y', 'pull'],
          ]),
        }),
      ),
    ).toEqual([
      { kind: 'author', stored: true },
      { kind: 'tag', tag: 'x', stored: true },
      { kind: 'tag', tag: 'y', stored: false },
    ]);
    expect(roadsOf(facts({ post: { actor: 'bob' } }))).toEqual([{ kind: 'own' }]);
  });

  it('lets a writer copy only where the bound reaches the post, and never takes a copy for a bound', () => {
    const at = 1_000n;
    expect(boundReaches(undefined, at)).toBe(true);
    expect(boundReaches(at, at)).toBe(true);
    expect(boundReaches(at - 1n, at)).toBe(false);
    expect(boundReaches(at - 1n, undefined)).toBe(true); // FANOUT_ACTIVE_WINDOW=off
    expect(authorPageCopies({ muted: false, activeUntil: at }, at)).toBe(true);
    expect(authorPageCopies({ muted: true }, at)).toBe(false);
    expect(authorPageCopies({ muted: false, activeUntil: at - 1n }, at)).toBe(false);
    expect(tagPageCopies('bob', 'alice', false, undefined, at)).toBe(true);
    expect(tagPageCopies('bob', 'alice', true, undefined, at)).toBe(false);
    expect(tagPageCopies('alice', 'alice', false, undefined, at)).toBe(false); // the author's own post wrote theirs
    expect(tagPageCopies('bob', 'alice', false, at - 1n, at)).toBe(false);
  });

  it('stores the author road only while the author is not pulled', () => {
    expect(authorRoadStores(follows, false)).toBe(true);
    expect(authorRoadStores(follows, true)).toBe(false);
    expect(authorRoadStores({ active: true, muted: true }, false)).toBe(false);
    expect(authorRoadStores(undefined, false)).toBe(false);
  });
});
