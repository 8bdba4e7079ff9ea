import { setTimeout as sleep } from 'node:timers/promises';
import type { Scenario } from '../../lib/simulate/scenario';
import type { ApiClient } from '../client/api-client';
import type { CommandContext } from './context';
import { applyObject, attempt, deleteObject, patchObject, targetOf, type Source } from './object-actions';
import { waitUntilSettled } from './settle';

/**
 * A scenario against a live system: its steps in order, each followed by waiting until the
 * scheduler has settled, as `outrank simulate` runs each step until no work is left.
 */
export async function applyScenario(context: CommandContext, client: ApiClient, scenario: Scenario, source: Source, timeoutMs: number): Promise<void> {
  if (scenario.config) context.err('warning: the scenario\'s config is ignored: the server schedules with its own settings');
  for (const step of scenario.steps) {
    if ('apply' in step) {
      for (const raw of step.apply) await attempt(context, () => applyObject(context, client, raw, source));
    } else if ('patch' in step) {
      for (const { patch, apiVersion, kind, namespace, name } of step.patch) {
        await attempt(context, () => patchObject(context, client, targetOf(apiVersion, kind, name, namespace, source), name, patch));
      }
    } else if ('delete' in step) {
      for (const { apiVersion, kind, namespace, name } of step.delete) {
        await attempt(context, () => deleteObject(context, client, targetOf(apiVersion, kind, name, namespace, source), name));
      }
    } else {
      // Real time passes on a live system: its reconcile runs on its own schedule meanwhile.
      context.err(`waiting ${step.wait / 1000}s`);
      await sleep(step.wait);
    }
    await waitUntilSettled(client, timeoutMs);
  }
}
