import { describe, expect, it } from 'vitest';
import { formatSimulation } from '../../../lib/simulate/format-result';
import { runScenario } from '../../../lib/simulate/run-scenario';
import { scaleScenario } from '../../bench/scale-scenario';

/** 100 clusters filled by 2,000 running workloads, then 100 high-priority arrivals that must preempt: run in memory. */
const scenario = scaleScenario({ clusters: 100, workloads: 2_000, preemptors: 100 });
const result = await runScenario(scenario);
const summary = formatSimulation(result, { description: scenario.description });
const lines = summary.split('\n');

function row(...cells: Array<string | number>): RegExp {
  return new RegExp(`^${cells.map((cell) => String(cell).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')}$`);
}

describe('the summary of a fleet-size simulation', () => {
  it('fits a screen or two', () => {
    expect(result.bindings).toHaveLength(2_100);
    expect(result.events.length).toBeGreaterThan(2_000);
    expect(lines.length).toBeLessThanOrEqual(120);
  });

  it('counts the bindings placed, waiting and suspended at each priority', () => {
    const waiting = result.priorities.reduce((sum, p) => sum + p.waiting, 0);
    expect(waiting).toBeGreaterThan(0);
    expect(result.priorities.map((p) => p.priority)).toEqual([1_000, 50, 10, 0]);
    for (const p of result.priorities) {
      expect(lines.some((line) => row(p.priority, p.bindings, p.placed, p.waiting, p.suspended, p.preempted).test(line))).toBe(true);
    }
    const last = result.steps.at(-1)!;
    expect(lines).toContainEqual(expect.stringMatching(row(3, '0s', 'apply 200 objects (100 Deployment, 100 PropagationPolicy)', last.bindings.placed, waiting, 0, last.preempted, 0)));
  });

  it('shows the first preemptions, each preemptor with its victims, and how many more there are', () => {
    const header = lines.findIndex((line) => line.startsWith('STEP   TIME   PREEMPTOR'));
    expect(header).toBeGreaterThan(0);
    expect(result.preemptions.length).toBeGreaterThan(10);
    for (const [index, preemption] of result.preemptions.slice(0, 10).entries()) {
      const victims = preemption.victims.slice(0, 3).map((v) => `${v.namespace}/${v.name} (${v.priority})`).join(', ');
      const more = preemption.victims.length > 3 ? ` +${preemption.victims.length - 3} more` : '';
      const clusters = preemption.clusters.map((c) => `${c.name}:${c.replicas}`).join(',');
      expect(lines[header + 1 + index]).toMatch(row(3, '0s', `fleet/${preemption.preemptor.name}`, 1_000, clusters, `${victims}${more}`));
    }
    expect(lines[header + 11]).toBe(`… ${result.preemptions.length - 10} more preemptions (-o wide or --events for all)`);
  });

  it('lists the ten fullest clusters and counts the others by how full they are', () => {
    const header = lines.findIndex((line) => line.startsWith('CLUSTER '));
    expect(lines[header]).toMatch(row('CLUSTER', 'READY', 'CPU', 'MEMORY', 'PODS'));
    expect(lines.slice(header + 1, header + 11).every((line) => /^member-\d{3}\s+True\s+\S+\/\S+ \(\d+%\)/.test(line))).toBe(true);
    expect(lines[header + 11]).toMatch(/^… 90 more clusters, by their fullest resource: .+ \(-o wide for all\)$/);
  });

  it('ends with the totals and the options that show the details', () => {
    expect(lines.at(-2)).toMatch(/^Total: 2100 bindings \(\d+ placed, \d+ waiting, 0 suspended\) on 100 clusters; \d+ bindings preempted by \d+ placements; 0 writes refused\.$/);
    expect(lines.at(-1)).toContain('-o wide');
  });

  it('with -o wide, lists every binding, preemption and cluster', () => {
    const wide = formatSimulation(result, { wide: true }).split('\n');
    expect(wide.filter((line) => /^fleet\s+\S+-deployment\s/.test(line))).toHaveLength(2_100);
    expect(wide.filter((line) => /^3\s+0s\s+fleet\/urgent-/.test(line))).toHaveLength(result.preemptions.length);
    expect(wide.filter((line) => /^member-\d{3}\s/.test(line))).toHaveLength(100);
    expect(wide.some((line) => line.startsWith('…'))).toBe(false);
  });
});
