import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger, metrics } from '../../functions/observability';

describe('metrics of an invocation that adds none', () => {
  afterEach(() => vi.restoreAllMocks());

  it('are noted at debug level, not warned about at every invocation', () => {
    const debug = vi.spyOn(logger, 'debug').mockImplementation(() => undefined);
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    metrics.publishStoredMetrics();
    expect(warn).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('No application metrics to publish'));
  });
});
