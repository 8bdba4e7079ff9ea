/**
 * NoExecute taints against a binding's tolerations, with Karmada's tables ported as facts:
 * pkg/util/helper/taint_test.go (TestGetMatchingTolerations, TestGetMinTolerationTimeWithCurrentTime) and
 * pkg/controllers/cluster/taint_manager_test.go (TestNoExecuteTaintManager_needEvictionWithCurrentTime).
 */
import { describe, expect, it } from 'vitest';
import type { Taint } from '../../../lib/api/cluster';
import type { Toleration } from '../../../lib/api/propagation-policy';
import { matchingTolerations, noExecuteVerdict, tolerationEnd, type NoExecuteVerdict } from '../../../lib/scheduler/no-execute';
import { cluster } from './support';

const FIXED = Date.parse('2025-09-23T12:00:00Z');
const at = (offsetSeconds: number) => new Date(FIXED + offsetSeconds * 1_000).toISOString();

/** Karmada's duration: -1 tolerated for ever, 0 evict now, else the time left, in seconds. */
function minTolerationSeconds(taints: readonly Taint[], used: readonly Toleration[]): number {
  if (taints.length === 0) return -1;
  const end = tolerationEnd(taints, used);
  if (!end) return -1;
  return end.at <= FIXED ? 0 : (end.at - FIXED) / 1_000;
}

describe('taint_test.go, TestGetMinTolerationTimeWithCurrentTime', () => {
  const exists = (key: string, seconds?: number): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', ...(seconds === undefined ? {} : { tolerationSeconds: seconds }) });
  const taint = (key: string, added?: string): Taint => ({ key, value: 'value', effect: 'NoExecute', ...(added ? { timeAdded: added } : {}) });

  it.each<[string, Taint[], Toleration[], number]>([
    ['"no noExecuteTaints"', [], [exists('key', 60)], -1],
    ['"no usedTolerations"', [taint('key', at(0))], [], 0],
    ['"with noExecuteTaints and usedTolerations"', [taint('key', at(0))], [exists('key', 60)], 60],
    ['"usedTolerantion.TolerationSeconds is nil"', [taint('key', at(0))], [exists('key')], -1],
    ['"noExecuteTaints.TimeAdded is nil"', [taint('key')], [exists('key', 60)], -1],
    ['"find the latest trigger time" (the earliest)', [taint('key1', at(0)), taint('key2', at(0))], [exists('key1', 120), exists('key2', 60)], 60],
    ['"trigger time is up"', [taint('key', at(-120))], [exists('key', 60)], 0],
  ])('%s → %s', (_, taints, used, seconds) => {
    expect(minTolerationSeconds(taints, used)).toBe(seconds);
  });
});

describe('taint_test.go, TestGetMatchingTolerations', () => {
  const key1: Taint = { key: 'key1', value: 'value1', effect: 'NoSchedule' };
  const key2: Taint = { key: 'key2', value: 'value2', effect: 'NoSchedule' };

  it.each<[string, Taint[], Toleration[], Toleration[] | undefined]>([
    ['"taints is nil"', [], [{ key: 'key1', value: 'value1', effect: 'NoSchedule' }], []],
    ['"tolerations is nil"', [key1], [], undefined],
    [
      '"tolerated is true"',
      [key1, key2],
      [{ key: 'key1', value: 'value1', effect: 'NoSchedule' }, { key: 'key2', value: 'value2', effect: 'NoSchedule' }],
      [{ key: 'key1', value: 'value1', effect: 'NoSchedule' }, { key: 'key2', value: 'value2', effect: 'NoSchedule' }],
    ],
    ['"tolerated is false"', [key1, key2], [{ key: 'key1', value: 'value_1', effect: 'NoSchedule' }, { key: 'key2', value: 'value_2', effect: 'NoSchedule' }], undefined],
  ])('%s', (_, taints, tolerations, used) => {
    const matching = matchingTolerations(taints, tolerations);
    expect('used' in matching ? matching.used : undefined).toEqual(used);
  });
});

describe('taint_manager_test.go, TestNoExecuteTaintManager_needEvictionWithCurrentTime (the cases about taints and tolerations)', () => {
  const testKey = (added: string, effect = 'NoExecute') => ({ key: 'test-key', effect, timeAdded: added });
  const tolerate = (key: string, seconds?: number): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', ...(seconds === undefined ? {} : { tolerationSeconds: seconds }) });

  it.each<[string, Record<string, unknown>[], Toleration[], 'never' | 'now' | number]>([
    ['"cluster has no NoExecute taints"', [{ key: 'test-key', effect: 'NoSchedule' }], [], 'never'],
    ['"taint not tolerated - immediate eviction"', [testKey(at(-1))], [], 'now'],
    ['"taint tolerated with zero toleration seconds - immediate eviction"', [testKey(at(-1))], [tolerate('test-key', 0)], 'now'],
    ['"taint tolerated with positive toleration seconds - wait for toleration time" (59 s)', [testKey(at(-1))], [tolerate('test-key', 60)], 59],
    ['"taint tolerated forever - no eviction"', [testKey(at(-1))], [tolerate('test-key')], 'never'],
    [
      '"multiple taints with mixed tolerations"',
      [{ key: 'tolerated-key', effect: 'NoExecute', timeAdded: at(1) }, { key: 'not-tolerated-key', effect: 'NoExecute', timeAdded: at(-1) }],
      [tolerate('tolerated-key', 30)],
      'now',
    ],
    ['"toleration time expired - immediate eviction"', [testKey(at(-2))], [tolerate('test-key', 1)], 'now'],
  ])('%s', (_, taints, tolerations, expected) => {
    const verdict: NoExecuteVerdict = noExecuteVerdict(cluster('test-cluster', { taints }), tolerations, FIXED);
    const seen = verdict.evict === 'later' ? (verdict.at - FIXED) / 1_000 : verdict.evict;
    expect(seen).toBe(expected);
  });

  it('names the taint and why: not tolerated, or tolerated no longer', () => {
    expect(noExecuteVerdict(cluster('c', { taints: [testKey(at(-1))] }), [], FIXED)).toMatchObject({ evict: 'now', why: 'untolerated', taint: { key: 'test-key' } });
    expect(noExecuteVerdict(cluster('c', { taints: [testKey(at(-2))] }), [tolerate('test-key', 1)], FIXED)).toMatchObject({ evict: 'now', why: 'expired', taint: { key: 'test-key' } });
  });
});

describe('taint_manager_test.go, Test_enqueueBinding (immediate, delayed or skipped; the cases about the applied placement have no counterpart: a binding carries its placement)', () => {
  const ago = at(-1);
  const tolerate = (key: string, seconds?: number): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', ...(seconds === undefined ? {} : { tolerationSeconds: seconds }) });

  it.each<[string, Record<string, unknown>[], Toleration[], 'skip' | 'immediate' | 'delayed']>([
    ['"no taints - skip"', [], [], 'skip'],
    ['"no tolerations - immediate eviction"', [{ key: 'test-key', effect: 'NoExecute', timeAdded: ago }], [], 'immediate'],
    ['"finite tolerationSeconds unexpired - delayed eviction"', [{ key: 'test-key', effect: 'NoExecute', timeAdded: ago }], [tolerate('test-key', 60)], 'delayed'],
    ['"infinite toleration (no tolerationSeconds) - skip"', [{ key: 'test-key', effect: 'NoExecute', timeAdded: ago }], [tolerate('test-key')], 'skip'],
    [
      '"multiple taints - one not tolerated - immediate"',
      [{ key: 'tolerated-key', effect: 'NoExecute', timeAdded: ago }, { key: 'not-tolerated-key', effect: 'NoExecute', timeAdded: ago }],
      [tolerate('tolerated-key')],
      'immediate',
    ],
    ['"multiple taints - all tolerated indefinitely - skip"', [{ key: 'key1', effect: 'NoExecute', timeAdded: ago }, { key: 'key2', effect: 'NoExecute', timeAdded: ago }], [tolerate('key1'), tolerate('key2')], 'skip'],
    [
      '"multiple taints - one tolerated with finite seconds - delayed"',
      [{ key: 'key1', effect: 'NoExecute', timeAdded: ago }, { key: 'key2', effect: 'NoExecute', timeAdded: ago }],
      [tolerate('key1'), tolerate('key2', 120)],
      'delayed',
    ],
  ])('%s', (_, taints, tolerations, action) => {
    const verdict = noExecuteVerdict(cluster('member1', { taints }), tolerations, FIXED);
    expect({ never: 'skip', now: 'immediate', later: 'delayed' }[verdict.evict]).toBe(action);
  });
});
