import { generateLocalKeys } from '../local/jwt.js';
import { startLocalStack } from '../local/stack.js';
import { createContext } from './context.js';
import { missingCopies, now, uid, rawBatchWrite, storedShapes, itemLike, quiesce } from './fixtures.js';
import { callNaive, naiveFollow, startNaiveServer } from './naive-baseline.js';
import { nowTicks } from '../functions/core/ticks.js';

const keys = await generateLocalKeys();
const stack = await startLocalStack({ port: 0, keys, sqsRetryDelaySeconds: 1 });
const ctx = await createContext(stack, keys);
try {
  const followers = Array.from({ length: 5000 }, (_, i) => uid('nf', i));
  let t = now();
  await naiveFollow(ctx, 'naive-a', followers);
  console.log('naive follow 5000 ms', now() - t);
  const server = await startNaiveServer(ctx);
  for (let i = 0; i < 2; i++) {
    const r = await callNaive(ctx, server, 'naive-a', { verb: 'post' });
    console.log('naive post', r.status, r.ms, r.body);
    t = now();
    console.log('missing', (await missingCopies(ctx, followers, r.body.rangeKey)).length, 'verify ms', now() - t);
  }
  await server.stop();
  const { copy } = await storedShapes(ctx);
  const items = followers.map((_, i) => itemLike(copy, uid('raw', i), nowTicks()));
  for (const c of [1, 4, 8]) { t = now(); await rawBatchWrite(ctx, stack.tableNames.feed, items, c); console.log('raw c', c, 5000 / ((now() - t) / 1000)); }
  t = now(); await quiesce(ctx); console.log('quiesce', now() - t);
} finally {
  ctx.close();
  await stack.stop();
}
