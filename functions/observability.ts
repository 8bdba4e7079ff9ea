import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/** One logger and one metrics namespace for every outrank function. */
export const logger = new Logger({ serviceName: 'outrank' });

/** What Powertools Metrics says at every invocation that adds no metric (an idle cycle, or metrics turned off). */
const NO_METRICS_WARNING = 'No application metrics to publish';

/** Where Powertools Metrics logs: to the logger, with its warning about an invocation without metrics at debug level. */
const metricsLog = {
  debug: (...content: unknown[]) => logger.debug(String(content[0])),
  info: (...content: unknown[]) => logger.info(String(content[0])),
  warn: (...content: unknown[]) => {
    const message = String(content[0]);
    if (message.startsWith(NO_METRICS_WARNING)) logger.debug(message);
    else logger.warn(message);
  },
  error: (...content: unknown[]) => logger.error(String(content[0])),
};

export const metrics = new Metrics({ namespace: 'Outrank', serviceName: 'outrank', logger: metricsLog });
