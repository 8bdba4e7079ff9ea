import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/** One logger and one metrics namespace for every outrank function. */
export const logger = new Logger({ serviceName: 'outrank' });
export const metrics = new Metrics({ namespace: 'Outrank', serviceName: 'outrank' });
