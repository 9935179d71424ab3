/** Stream images (attribute-value JSON) ↔ plain items, numbers kept exact (NumberValue, bigint). */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from 'aws-lambda';

export type StreamImage = Record<string, AttributeValue>;

export const itemOfImage = (image: StreamImage): Record<string, unknown> => unmarshall(image as Parameters<typeof unmarshall>[0], { wrapNumbers: true });
