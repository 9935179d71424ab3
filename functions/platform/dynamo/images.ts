/** Stream images (attribute-value JSON) ↔ plain items, numbers kept exact (NumberValue, bigint). */
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from 'aws-lambda';

export type StreamImage = Record<string, AttributeValue>;

export const itemOfImage = (image: StreamImage): Record<string, unknown> =>
  unmarshall(image as Parameters<typeof unmarshall>[0], { wrapNumbers: true });

/** The image a stream record would carry of `item` (a job that stands in for the stream: services/tags/retag.ts). */
export const imageOfItem = (item: Record<string, unknown>): StreamImage => marshall(item, { removeUndefinedValues: true }) as StreamImage;
