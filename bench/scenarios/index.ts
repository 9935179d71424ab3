import { activity } from './activity.js';
import { cost } from './cost/index.js';
import { edits } from './edits.js';
import { fanoutRate } from './fanout-rate.js';
import { generator } from './generator.js';
import { postLatency } from './post-latency.js';
import { reading } from './reading.js';
import { ranked } from './ranked.js';
import { realtime } from './realtime.js';
import { rollups } from './rollups.js';
import { social } from './social.js';
import { steadyLoad } from './steady-load.js';
import { tags } from './tags.js';
import { follows } from './follows.js';
import { workload } from './workload.js';
import { bundles } from './bundles.js';
import { burst } from './burst.js';
import { limits } from './limits.js';
import { migrate } from './migrate.js';
import type { Scenario } from './scenario.js';

/** In the order they run (post and fanout share the 5,000 follows). */
export const scenarios: Scenario[] = [
  postLatency,
  fanoutRate,
  reading,
  rollups,
  cost,
  social,
  steadyLoad,
  follows,
  workload,
  activity,
  realtime,
  bundles,
  limits,
  migrate,
  edits,
  tags,
  ranked,
  generator,
  burst,
];
