import { Logger } from '@aws-lambda-powertools/logger';

/** One structured JSON logger per process; service name shows in every line. */
export const logger = new Logger({ serviceName: 'tickfeed' });
