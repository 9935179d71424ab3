/** A migration checkpoint keeps the Scan's key as the Scan gave it, so a Number key resumes as a Number. */
import { NumberValueImpl as NumberValue } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { checkpointItem, parseCheckpoint } from '../../functions/model/data-model.js';

describe('a migration checkpoint', () => {
  it('round-trips its counts and a last key with a Number attribute (the feed table’s rk)', () => {
    const lastKey = { pk: 'f#alice', rk: NumberValue.from('7427616522350771878599106072366') };
    const checkpoint = { segment: 2, totalSegments: 4, lastKey, done: false, scanned: 500, changed: 12, writes: 30 };
    const parsed = parseCheckpoint(checkpointItem(3, checkpoint));
    expect(parsed).toEqual(checkpoint);
    expect(parsed.lastKey!.rk).toBeInstanceOf(NumberValue);
  });
});
