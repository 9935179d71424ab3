/**
 * The pure parts of edits: the merge patch (RFC 7396 over content, object, attributes), the ETag
 * match, the history's bound, the original as an edit leaves it, and the outbox's jobs for an
 * edit's stream record.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { droppedVersion, HISTORY_KEEP, historyEntry, toActivityVersion } from '../../functions/model/activity-history.js';
import { activityIdOf } from '../../functions/model/activity-id.js';
import { ValidationError } from '../../functions/model/domain-errors.js';
import { etagMatches, etagOf } from '../../functions/services/edits/etag.js';
import { editableOf } from '../../functions/model/editable-fields.js';
import { applyPatch } from '../../functions/services/edits/merge-patch.js';
import { jobsOfRecord } from '../../functions/services/jobs/outbox-jobs.js';
import { editedItem, editExpression } from '../../functions/stores/feed-store.js';

const current = { content: 'helo', object: 'photo:1', attributes: { score: 3, team: 'red' } };

describe('merge patch', () => {
  it('sets, removes with null and leaves absent fields alone', () => {
    expect(applyPatch(current, { content: 'hello' }, 20)).toEqual({ fields: { ...current, content: 'hello' }, changed: true });
    expect(applyPatch(current, { object: null }, 20)).toEqual({ fields: { ...current, object: undefined }, changed: true });
    expect(applyPatch(current, { attributes: { team: null, level: 2 } }, 20).fields.attributes).toEqual({ score: 3, level: 2 });
    expect(applyPatch(current, { attributes: null }, 20).fields.attributes).toBeUndefined();
    expect(applyPatch(current, { attributes: { score: null, team: null } }, 20).fields.attributes).toBeUndefined(); // none left: absent
  });

  it('says when nothing changes (same values, removing what is absent, an empty patch)', () => {
    expect(applyPatch(current, {}, 20).changed).toBe(false);
    expect(applyPatch(current, { content: 'helo', attributes: { score: 3, missing: null } }, 20).changed).toBe(false);
    expect(applyPatch({}, { content: null, attributes: null }, 20).changed).toBe(false);
    expect(applyPatch(current, { attributes: { score: '3' } }, 20).changed).toBe(true); // a string is not the number
  });

  it('refuses more attributes after the merge than a post may carry', () => {
    expect(() => applyPatch(current, { attributes: { a: 1 } }, 2)).toThrow(ValidationError);
    expect(applyPatch(current, { attributes: { a: 1, team: null } }, 2).fields.attributes).toEqual({ score: 3, a: 1 });
  });

  it('reads the editable fields of a stored original, numbers as read with wrapNumbers', () => {
    const stored = {
      pk: 't#a',
      rk: 7n,
      id: 'x',
      actor: 'a',
      verb: 'post',
      time: 't',
      content: 'c',
      attributes: { n: { value: '2.5', toString: () => '2.5' } },
    };
    expect(editableOf(stored)).toEqual({ content: 'c', object: undefined, attributes: { n: 2.5 } });
    // tags are editable too (the copies' state carries them), though no patch names them
    expect(editableOf({ ...stored, tags: ['Run', 'x'] }).tags).toEqual(['Run', 'x']);
  });
});

describe('ETags', () => {
  it('are the version, strong or weak, one of a list, or *', () => {
    expect(etagOf(3)).toBe('"3"');
    expect(etagMatches('"3"', 3)).toBe(true);
    expect(etagMatches('W/"3"', 3)).toBe(true);
    expect(etagMatches('"1", "3"', 3)).toBe(true);
    expect(etagMatches('*', 9)).toBe(true);
    expect(etagMatches('"2"', 3)).toBe(false);
    expect(etagMatches('3', 3)).toBe(false); // unquoted is not an ETag
  });
});

describe('history', () => {
  it('drops the version HISTORY_KEEP + 1 back, only once there is one', () => {
    expect(droppedVersion(2)).toBeUndefined();
    expect(droppedVersion(HISTORY_KEEP + 1)).toBeUndefined(); // versions 1 … 20 kept
    expect(droppedVersion(HISTORY_KEEP + 2)).toBe(1);
    expect(droppedVersion(100)).toBe(100 - 1 - HISTORY_KEEP);
  });

  it("keeps an original as it was, keyed by its version, and shows it at its activity's position", () => {
    const rk = 9223370000000000000000000000123n;
    const id = activityIdOf('alice', rk);
    const original = { pk: 't#alice', rk, id, actor: 'alice', verb: 'post', content: 'v1', time: 't', expiresAt: 5 };
    const entry = historyEntry(original, '2026-11-27T10:00:00Z');
    expect(entry).toMatchObject({ pk: `v#${id}`, rk: 1n, version: 1, content: 'v1', replacedAt: '2026-11-27T10:00:00Z' });
    expect(entry).not.toHaveProperty('expiresAt');
    expect(toActivityVersion(entry)).toMatchObject({
      id,
      rangeKey: rk.toString(),
      version: 1,
      editedAt: null,
      content: 'v1',
      replacedAt: '2026-11-27T10:00:00Z',
    });
  });
});

describe('the outbox, for an edit', () => {
  const rk = 9223370000000000000000000000123n;
  const image = (item: Record<string, unknown>) => marshall(item, { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];
  const v1 = { pk: 't#alice', rk, id: activityIdOf('alice', rk), actor: 'alice', verb: 'post', content: 'hi @bob', time: 't' };
  const v2 = { ...v1, content: 'hi @bob and @carol', version: 2, editedAt: '2026-11-27T10:00:00.000000000Z' };
  const modify = (before: Record<string, unknown>, after: Record<string, unknown>): DynamoDBRecord => ({
    eventName: 'MODIFY',
    dynamodb: { NewImage: image(after), OldImage: image(before), SequenceNumber: '1' },
  });

  it("sends the edit job and a mention to the newly mentioned only, at the edit's time", () => {
    const jobs = jobsOfRecord(modify(v1, v2));
    expect(jobs[0]).toEqual({ kind: 'edit', author: 'alice', rk: rk.toString(), version: 2 });
    expect(jobs.slice(1)).toEqual([
      {
        kind: 'notify',
        recipient: 'carol',
        events: [expect.objectContaining({ kind: 'mention', object: v1.id, actor: 'alice', id: `mention:${v1.id}`, ticks: '1795773600000000000' })],
      },
    ]);
  });

  it('sends nothing for a MODIFY that did not move the version', () => {
    expect(jobsOfRecord(modify(v2, { ...v2, expiresAt: 9 }))).toEqual([]);
  });
});

describe('the original as an edit leaves it (the transaction returns no item)', () => {
  it('sets what the state holds, removes the editable fields it lacks, keeps the rest: as the update expression does', () => {
    const original = {
      pk: 't#ann',
      rk: 5n,
      id: 'x',
      actor: 'ann',
      verb: 'post',
      content: 'old #a',
      object: 'photo:1',
      attributes: { n: 1 },
      tags: ['a'],
      time: 't',
    };
    const state = { content: 'new', attributes: { n: 2 }, version: 2, editedAt: '2026-11-27T10:00:00Z' };
    expect(editedItem(original, state)).toEqual({
      pk: 't#ann',
      rk: 5n,
      id: 'x',
      actor: 'ann',
      verb: 'post',
      content: 'new',
      attributes: { n: 2 },
      time: 't',
      version: 2,
      editedAt: state.editedAt,
    });
    expect(editExpression(state).UpdateExpression).toBe(
      'SET #version = :version, #editedAt = :editedAt, #content = :content, #attributes = :attributes REMOVE #object, #tags',
    );
  });
});
