/**
 * Hashtags end to end on the shared stack (FANOUT_PULL_THRESHOLD = 50): a tagged post in its tag's
 * feed and, exactly once, in a tag follower's home feed — also by a second road (its author followed,
 * two followed tags) and under redelivery of the tag fan-out; an edit that moves a post between tags
 * (retag), and one that keeps a tag reaching that tag's followers' copies; an unfollow that keeps what another road brought; mutes and blocks in tag feeds and the tag fan-out; delete and erase leaving no entry;
 * a hot tag merged at read time; 11 tags refused with nothing written; trending by distinct authors,
 * exact after redeliveries. Background work is waited for by its effect (`eventually`); the
 * redeliveries run the job's code in this process with the job body the outbox sends.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Activity } from '../../functions/model/activity.js';
import { feedHeadKey, parseFeedHead } from '../../functions/model/feed-head.js';
import { tagFeedKey } from '../../functions/model/tag-items.js';
import { tagKeyOf } from '../../functions/model/tags.js';
import { ticksOfRangeKey } from '../../functions/model/range-key.js';
import { timelineKey } from '../../functions/model/timeline-item.js';
import { trendBucket } from '../../functions/model/trend.js';
import { ERASE_PHASES } from '../../functions/model/erasure.js';
import { phaseSteps } from '../../functions/services/erase/phases.js';
import { jobsOfRecord } from '../../functions/services/jobs/outbox-jobs.js';
import type { Job } from '../../functions/services/jobs/jobs.js';
import { tagCleanup } from '../../functions/services/tags/tag-cleanup.js';
import { tagFanout } from '../../functions/services/tags/tag-fanout.js';
import { countTrend } from '../../functions/services/tags/trending.js';
import { countTrendUse } from '../../functions/stores/tag-store.js';
import { forEachLimit } from '../../functions/platform/pool.js';
import { marshall } from '@aws-sdk/util-dynamodb';
import { ADMIN, api, mustPost } from '../support/api.js';
import { patchActivity, storedCopy } from '../support/edits.js';
import { feedRks, idsOf } from '../support/feeds.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';

/** A fresh tag (letters and digits only), unique per test. */
const freshTag = (prefix: string) => `${prefix}${uid('').replace(/-/g, '')}`;

const tagIds = async (reader: string, tag: string, query = ''): Promise<string[]> => {
  const res = await api<{ items: Activity[] }>('GET', `/tags/${encodeURIComponent(tag)}/activities${query}`, { as: reader });
  expect(res.status).toBe(200);
  return idsOf(res.body);
};
const homeIds = async (user: string): Promise<string[]> => idsOf((await api<{ items: Activity[] }>('GET', '/feed?limit=100', { as: user })).body);
const followTag = async (user: string, tag: string) => expect((await api('PUT', `/following/tags/${encodeURIComponent(tag)}`, { as: user })).status).toBe(204);
const count = (ids: readonly string[], id: string) => ids.filter((i) => i === id).length;
const entryOf = async (tag: string, rangeKey: string) =>
  (await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: tagFeedKey(tagKeyOf(tag), BigInt(rangeKey)), ConsistentRead: true }))).Item;

/** The tagFanout jobs the outbox makes of the post's stream INSERT (as the stack's outbox does). */
async function tagFanoutJobsOf(post: Activity): Promise<Extract<Job, { kind: 'tagFanout' }>[]> {
  const { Item } = await doc.send(
    new GetCommand({ TableName: stack.tableNames.feed, Key: timelineKey(post.actor, BigInt(post.rangeKey)), ConsistentRead: true }),
  );
  const image = marshall(Item!, { removeUndefinedValues: true }) as never;
  return jobsOfRecord({ eventName: 'INSERT', dynamodb: { NewImage: image, SequenceNumber: '1' } }).filter(
    (j): j is Extract<Job, { kind: 'tagFanout' }> => j.kind === 'tagFanout',
  );
}

describe('tags of a post', () => {
  it("are the content's #hashtags and the given tags, distinct by NFKC + lower case, each as first written", async () => {
    const author = uid('author');
    const tag = freshTag('Café');
    const post = await mustPost(author, { verb: 'post', content: `#${tag} and #${tag.toUpperCase()} and a#nottag, #１２ #x_1`, tags: ['x_1', 'Extra'] });
    expect(post.tags).toEqual([tag, 'x_1', 'Extra']);
    await eventually(async () => (await tagIds(author, tag.toUpperCase())).includes(post.id));
  });

  it('11 tags are a 400, and nothing is written (the post, its own copy, a tag entry)', async () => {
    const author = uid('author');
    const tags = Array.from({ length: 11 }, (_, i) => freshTag(`t${i}x`));
    const res = await api('POST', '/activities', {
      as: author,
      json: {
        verb: 'post',
        content: tags
          .slice(0, 6)
          .map((t) => `#${t}`)
          .join(' '),
        tags: tags.slice(6),
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('body.tags');
    expect((await api('GET', `/users/${author}/activities`, { as: author })).body.items).toEqual([]);
    expect(await feedRks(author)).toEqual([]);
    const bulk = await api('POST', '/batch/activities', {
      as: uid('admin'),
      scope: ADMIN,
      json: {
        activities: [
          { actor: author, verb: 'post' },
          { actor: author, verb: 'post', tags },
        ],
      },
    });
    expect(bulk.status).toBe(400);
    expect((await api('GET', `/users/${author}/activities`, { as: author })).body.items).toEqual([]);
  });
});

describe('a followed tag', () => {
  it("brings a tagged post into the follower's home feed once: also by its followed author, two followed tags, and a redelivered fan-out", async () => {
    const [author, both, tagOnly] = [uid('author'), uid('both'), uid('tagonly')];
    const [t1, t2] = [freshTag('one'), freshTag('two')];
    for (const t of [t1, t2]) await followTag(both, t);
    await followTag(tagOnly, t1);
    await followTag(tagOnly, t1); // idempotent
    expect((await api('PUT', `/following/${author}`, { as: both })).status).toBe(204);
    const followed = [{ tag: t1 }, { tag: t2 }].sort((a, b) => (a.tag < b.tag ? -1 : 1));
    expect((await api('GET', '/me/tags', { as: both })).body).toEqual({ items: followed, next: null });
    expect((await api('GET', '/me/export', { as: both })).body.followedTags).toEqual(followed);

    const post = await mustPost(author, { verb: 'post', content: `hello #${t1} #${t2}` });
    await eventually(async () => (await homeIds(tagOnly)).includes(post.id) && (await homeIds(both)).includes(post.id));
    // Every tag job redelivered, the first delivery's copies in place.
    const jobs = await tagFanoutJobsOf(post);
    expect(jobs.map((j) => j.tag).sort()).toEqual([t1, t2].sort());
    for (const job of jobs) await tagFanout(job, true);
    for (const reader of [both, tagOnly]) expect(count(await homeIds(reader), post.id)).toBe(1);
    expect(count(await tagIds(tagOnly, t1), post.id)).toBe(1);
    expect(count(await tagIds(tagOnly, t2), post.id)).toBe(1);

    // Unfollowing both tags: the tag-only follower loses the post; the one who follows its author keeps it.
    for (const t of [t1, t2]) expect((await api('DELETE', `/following/tags/${t}`, { as: both })).status).toBe(204);
    expect((await api('DELETE', `/following/tags/${t1}`, { as: tagOnly })).status).toBe(204);
    expect((await api('DELETE', `/following/tags/${t1}`, { as: tagOnly })).status).toBe(204); // idempotent
    await eventually(async () => !(await homeIds(tagOnly)).includes(post.id), { what: 'the tag-only copy cleaned up' });
    // The cleanups of the other reader, run here to the end (the stack's ran or will run the same code).
    for (const t of [t1, t2]) await tagCleanup({ kind: 'tagCleanup', user: both, tag: tagKeyOf(t), followedAt: '0' });
    expect(count(await homeIds(both), post.id)).toBe(1);
    expect((await api('GET', '/me/tags', { as: both })).body).toEqual({ items: [], next: null });
  }, 60_000);

  it('keeps a post with another followed tag when one tag is unfollowed', async () => {
    const [author, reader] = [uid('author'), uid('reader')];
    const [t1, t2] = [freshTag('keep'), freshTag('drop')];
    for (const t of [t1, t2]) await followTag(reader, t);
    const post = await mustPost(author, { verb: 'post', content: `#${t1}`, tags: [t2] });
    await eventually(async () => (await homeIds(reader)).includes(post.id));
    expect((await api('DELETE', `/following/tags/${t2}`, { as: reader })).status).toBe(204);
    await tagCleanup({ kind: 'tagCleanup', user: reader, tag: tagKeyOf(t2), followedAt: '0' });
    expect(await homeIds(reader)).toContain(post.id);
  }, 60_000);

  it('is merged at read time once the tag has more followers than the pull threshold', async () => {
    const tag = freshTag('hot');
    const fans = Array.from({ length: 50 }, () => uid('fan'));
    await forEachLimit(fans, 16, (fan) => followTag(fan, tag));
    const late = uid('late');
    await followTag(late, tag);
    const head = parseFeedHead((await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: feedHeadKey(late), ConsistentRead: true }))).Item);
    expect(head.tags).toEqual([tag]);

    const post = await mustPost(uid('author'), { verb: 'post', content: `#${tag} news` });
    await eventually(async () => (await homeIds(fans[0]!)).includes(post.id), { what: 'a push follower got the copy' });
    expect(count(await homeIds(late), post.id)).toBe(1); // merged from the tag's feed
    expect(await feedRks(late)).not.toContain(post.rangeKey); // never copied
  }, 60_000);
});

describe('an edit that changes the tags (retag)', () => {
  it("moves the post: out of the tag it left and its followers' feeds, unless another road brings it; into the tag it joined", async () => {
    const [author, oldOnly, newOnly, viaAuthor] = [uid('author'), uid('oldonly'), uid('newonly'), uid('viaauthor')];
    const [before, after] = [freshTag('before'), freshTag('after')];
    await followTag(oldOnly, before);
    await followTag(viaAuthor, before);
    await followTag(newOnly, after);
    expect((await api('PUT', `/following/${author}`, { as: viaAuthor })).status).toBe(204);
    const post = await mustPost(author, { verb: 'post', content: `#${before} hi` });
    await eventually(async () => (await homeIds(oldOnly)).includes(post.id) && (await homeIds(viaAuthor)).includes(post.id));

    const edited = await patchActivity(post.id, { content: `#${after} hi` }, { as: author });
    expect(edited.status).toBe(200);
    await eventually(async () => !(await tagIds(oldOnly, before)).includes(post.id), { what: 'the entry of the tag it left gone' });
    await eventually(async () => (await homeIds(newOnly)).includes(post.id) && !(await homeIds(oldOnly)).includes(post.id), { what: 'the post moved' });
    expect(await tagIds(oldOnly, after)).toContain(post.id);
    expect(await homeIds(viaAuthor)).toContain(post.id); // its author is followed: it stays
  }, 60_000);

  it('brings the copies of a tag it kept to the new version, for tag followers who do not follow the author', async () => {
    const [author, tagOnly, viaAuthor] = [uid('author'), uid('tagonly'), uid('viaauthor')];
    const tag = freshTag('kept');
    await followTag(tagOnly, tag);
    await followTag(viaAuthor, tag);
    expect((await api('PUT', `/following/${author}`, { as: viaAuthor })).status).toBe(204);
    const post = await mustPost(author, { verb: 'post', content: `#${tag} typo` });
    await eventually(async () => (await homeIds(tagOnly)).includes(post.id) && (await homeIds(viaAuthor)).includes(post.id));

    expect((await patchActivity(post.id, { content: `#${tag} fixed` }, { as: author })).status).toBe(200);
    const versionOf = async (owner: string) => Number((await storedCopy(owner, post.id))?.version);
    await eventually(async () => (await versionOf(tagOnly)) === 2 && (await versionOf(viaAuthor)) === 2, { what: 'both copies at version 2' });
    expect((await storedCopy(tagOnly, post.id))!.content).toBe(`#${tag} fixed`);
    const page = (await api<{ items: Activity[] }>('GET', '/feed?limit=100', { as: tagOnly })).body.items;
    expect(page.filter((a) => a.id === post.id).map((a) => [a.content, a.version])).toEqual([[`#${tag} fixed`, 2]]);
  }, 60_000);
});

describe('whose copy: only roads that write copies keep one', () => {
  it("a redelivered tag fan-out of a post edited out of the tag keeps the author's own copy and a follower of the author's", async () => {
    const [author, viaAuthor, tagOnly] = [uid('author'), uid('viaauthor'), uid('tagonly')];
    const tag = freshTag('dropped');
    await followTag(author, tag);
    await followTag(viaAuthor, tag);
    await followTag(tagOnly, tag);
    expect((await api('PUT', `/following/${author}`, { as: viaAuthor })).status).toBe(204);
    const post = await mustPost(author, { verb: 'post', content: `#${tag} hi` });
    const jobs = await tagFanoutJobsOf(post);
    await eventually(async () => (await homeIds(tagOnly)).includes(post.id) && (await homeIds(viaAuthor)).includes(post.id));
    expect((await patchActivity(post.id, { content: 'hi' }, { as: author })).status).toBe(200);
    await eventually(async () => !(await homeIds(tagOnly)).includes(post.id), { what: 'the tag-only copy taken back' });
    // The first delivery's message comes back after the edit: its post lives on without the tag.
    for (const job of jobs) await tagFanout(job, true);
    expect(await feedRks(author)).toContain(post.rangeKey);
    expect(await feedRks(viaAuthor)).toContain(post.rangeKey);
    expect(await feedRks(tagOnly)).not.toContain(post.rangeKey);
  }, 60_000);

  it('a tag unfollow takes back a copy whose other tag is followed as pull, and the delete then leaves nothing', async () => {
    const [reader, author] = [uid('reader'), uid('author')];
    const [cold, hot] = [freshTag('cold'), freshTag('hot')];
    await forEachLimit(
      Array.from({ length: 50 }, () => uid('fan')),
      16,
      (fan) => followTag(fan, hot),
    );
    await followTag(reader, cold);
    await followTag(reader, hot); // the 51st: pull, merged at read time
    const post = await mustPost(author, { verb: 'post', content: `#${cold} #${hot}` });
    await eventually(async () => (await feedRks(reader)).includes(post.rangeKey), { what: 'the cold tag copied it' });
    expect((await api('DELETE', `/following/tags/${encodeURIComponent(cold)}`, { as: reader })).status).toBe(204);
    await eventually(async () => !(await feedRks(reader)).includes(post.rangeKey), { what: 'the stored copy taken back' });
    expect(count(await homeIds(reader), post.id)).toBe(1); // still shown, merged from the hot tag's feed
    expect((await api('DELETE', `/activities/${post.id}`, { as: author })).status).toBe(204);
    expect(await homeIds(reader)).not.toContain(post.id);
  }, 90_000);
});

describe('mutes and blocks', () => {
  it('hide muted and blocked authors, and authors who blocked the reader, in tag feeds and the tag fan-out', async () => {
    const [reader, muted, blocked, blocker, other] = [uid('reader'), uid('muted'), uid('blocked'), uid('blocker'), uid('other')];
    const tag = freshTag('ctl');
    expect((await api('PUT', `/mutes/${muted}`, { as: reader })).status).toBe(204);
    expect((await api('PUT', `/blocks/${blocked}`, { as: reader })).status).toBe(204);
    expect((await api('PUT', `/blocks/${reader}`, { as: blocker })).status).toBe(204);
    await followTag(reader, tag);
    const hidden = [
      await mustPost(muted, { verb: 'post', content: `#${tag}` }),
      await mustPost(blocked, { verb: 'post', content: `#${tag}` }),
      await mustPost(blocker, { verb: 'post', content: `#${tag}` }),
    ];
    const shown = await mustPost(other, { verb: 'post', content: `#${tag}` });
    await eventually(async () => (await homeIds(reader)).includes(shown.id));
    // Every hidden post's tag fan-out has run (its entry is in the tag's feed, as a stranger sees it) …
    await eventually(async () => (await tagIds(uid('stranger'), tag)).length === 4);
    // … and, run again, copies nothing to the reader either.
    for (const p of hidden) for (const job of await tagFanoutJobsOf(p)) await tagFanout(job, true);
    const home = await homeIds(reader);
    const feed = await tagIds(reader, tag);
    for (const p of hidden) {
      expect(home).not.toContain(p.id);
      expect(feed).not.toContain(p.id);
    }
    expect(feed).toEqual([shown.id]);
    // Pages with hidden items still walk the whole feed: limit 1, newest first, no gap.
    const seen: string[] = [];
    let before: string | null | undefined;
    for (let i = 0; i < 6 && before !== null; i++) {
      const page = (await api('GET', `/tags/${tag}/activities?limit=1${before ? `&before=${before}` : ''}`, { as: reader })).body;
      seen.push(...idsOf(page));
      before = page.lastRangeKey;
    }
    expect(seen).toEqual([shown.id]);
  }, 60_000);
});

describe('a deleted or erased post', () => {
  it("leaves its tag's feed at once, and the tag followers' feeds", async () => {
    const [author, follower] = [uid('author'), uid('follower')];
    const tag = freshTag('del');
    await followTag(follower, tag);
    const post = await mustPost(author, { verb: 'post', content: `#${tag}` });
    await eventually(async () => (await homeIds(follower)).includes(post.id));
    expect((await api('DELETE', `/activities/${encodeURIComponent(post.id)}`, { as: author })).status).toBe(204);
    expect(await tagIds(follower, tag)).not.toContain(post.id); // at once
    expect(await entryOf(tag, post.rangeKey)).toBeUndefined();
    await eventually(async () => !(await homeIds(follower)).includes(post.id), { what: 'the tag retract' });
    // A late fan-out of the deleted post writes nothing back.
    for (const job of await tagFanoutJobsOf({ ...post })) await tagFanout(job, true);
    expect(await entryOf(tag, post.rangeKey)).toBeUndefined();
  }, 60_000);

  it('an erase leaves no tag entry and no tag follow', async () => {
    const user = uid('erased');
    const tag = freshTag('era');
    await followTag(user, tag);
    const post = await mustPost(user, { verb: 'post', content: `#${tag}` });
    await eventually(async () => (await entryOf(tag, post.rangeKey)) !== undefined);
    expect((await api('DELETE', '/me', { as: user })).status).toBe(202);
    // The phases, run here to the end (the stack's erase job runs the same steps, a settle apart).
    for (const phase of ERASE_PHASES) while (await phaseSteps[phase](user));
    expect(await entryOf(tag, post.rangeKey)).toBeUndefined();
    expect((await api('GET', '/me/tags', { as: user })).body.items).toEqual([]);
  }, 60_000);
});

describe('trending', () => {
  it('ranks by distinct authors — one author a thousand times counts once — exact after redeliveries', async () => {
    const [popular, spam] = [freshTag('Popular'), freshTag('spam')];
    const authors = Array.from({ length: 6 }, () => uid('a'));
    const spammer = uid('spammer');
    const posts = await Promise.all(authors.map((a) => mustPost(a, { verb: 'post', content: `#${popular}` })));
    const spams: Activity[] = [];
    for (let i = 0; i < 12; i++) spams.push(await mustPost(spammer, { verb: 'post', content: `#${spam} again ${i}` }));
    const trending = async () => (await api('GET', '/tags/trending?window=1h', { as: spammer })).body as { tags: { tag: string; authors: number }[] };
    const countOf = (t: { tags: { tag: string; authors: number }[] }, tag: string) => t.tags.find((e) => e.tag.toLowerCase() === tag.toLowerCase())?.authors;
    await eventually(
      async () => {
        const t = await trending();
        return countOf(t, popular) === 6 && countOf(t, spam) === 1;
      },
      { what: 'both tags counted' },
    );

    // Redeliveries: every job again, and a count whose top-list raise was lost before the retry.
    for (const p of [...posts.slice(0, 3), ...spams.slice(0, 3)]) for (const job of await tagFanoutJobsOf(p)) await tagFanout(job, true);
    const ticks = ticksOfRangeKey(BigInt(posts[0]!.rangeKey));
    const ms = Number(ticks / 1_000_000n);
    const late = uid('late');
    await countTrendUse(trendBucket('1h', ms).bucket, tagKeyOf(popular), popular, late, Math.floor(ms / 1000) + 3600); // crashed after its count
    await countTrend(late, tagKeyOf(popular), [popular], ticks); // the redelivery
    await countTrend(late, tagKeyOf(popular), [popular], ticks); // and again
    const t = await trending();
    expect(countOf(t, popular)).toBe(7);
    expect(countOf(t, spam)).toBe(1);
    const names = t.tags.map((e) => e.tag.toLowerCase());
    expect(names.indexOf(popular.toLowerCase())).toBeLessThan(names.indexOf(spam.toLowerCase()));
    expect(t.tags.find((e) => e.tag.toLowerCase() === popular.toLowerCase())!.tag).toBe(popular); // as first written
    const day = (await api('GET', '/tags/trending?window=24h', { as: spammer })).body;
    expect(countOf(day, popular)).toBe(7);
    expect((await api('GET', '/tags/trending?window=7d', { as: spammer })).status).toBe(400);
  }, 60_000);

  it('an edit through PATCH moves the post between tags’ feeds and brings a kept tag’s entry to the new content', async () => {
    const author = uid('editor');
    const reader = uid('tagreader');
    const [kept, left, joined] = [freshTag('kept'), freshTag('left'), freshTag('joined')];
    const post = await mustPost(author, { verb: 'post', content: `#${kept} #${left} first` });
    await eventually(async () => (await tagIds(reader, left)).includes(post.id), { what: 'the post in both tags’ feeds' });
    const res = await patchActivity(post.id, { content: `#${kept} #${joined} second` }, { as: author });
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual([kept, joined]);
    await eventually(async () => (await tagIds(reader, joined)).includes(post.id) && !(await tagIds(reader, left)).includes(post.id), {
      what: 'the post moved',
    });
    // The post's first tagFanout for the tag it left, run late (after the edit's retract): it writes nothing.
    const [late] = (await tagFanoutJobsOf(post)).map((j) => ({ ...j, tag: tagKeyOf(left) }));
    await tagFanout(late!, false);
    expect(await tagIds(reader, left)).not.toContain(post.id);
    await eventually(
      async () => {
        const page = await api<{ items: Activity[] }>('GET', `/tags/${encodeURIComponent(kept)}/activities`, { as: reader });
        return page.body.items.find((i) => i.id === post.id)?.content === `#${kept} #${joined} second`;
      },
      { what: 'the kept tag’s entry at the new version' },
    );
    // Eleven tags by an edit: 400, nothing written.
    const eleven = Array.from({ length: 11 }, (_, i) => `#${freshTag(`t${i}`)}`).join(' ');
    expect((await patchActivity(post.id, { content: eleven }, { as: author })).status).toBe(400);
    expect((await api<Activity>('GET', `/activities/${post.id}`, { as: author })).body.version).toBe(2);
  }, 60_000);
});
