import { refKey, refOf, templateRefOf, type ObjectRef } from '../api/kinds';
import { POLICY_GROUP, type AnyPropagationPolicy } from '../api/propagation-policy';
import type { ResourceTemplate } from '../api/resource-template';
import { selectorScope } from '../policy/policy-match';
import { listBindings } from './binding-requests';
import type { ControllerContext } from './context';

/**
 * A level-triggered backstop, as Kubernetes controllers resync their informers: every template a policy
 * selects, and every template a binding names, goes to policy-change again. A write whose notice never
 * went out (the API failed after storing it and the client did not retry) then still reaches its binding,
 * and a binding whose template is gone is removed; policy-change writes nothing for a template whose
 * binding is already as it should be. Returns how many templates were sent.
 */
export async function resyncTemplates(context: ControllerContext): Promise<number> {
  const { store } = context;
  const [namespaced, clusterWide, bindings] = await Promise.all([
    store.list<AnyPropagationPolicy>(POLICY_GROUP, 'PropagationPolicy'),
    store.list<AnyPropagationPolicy>(POLICY_GROUP, 'ClusterPropagationPolicy'),
    listBindings(context),
  ]);

  // What the policies select, one listing per (group, kind, namespace).
  const listings = new Map<string, ReturnType<typeof selectorScope>>();
  for (const policy of [...namespaced, ...clusterWide]) {
    for (const selector of policy.spec.resourceSelectors) {
      const scope = selectorScope(policy, selector);
      listings.set(`${scope.group}/${scope.kind}/${scope.namespace ?? ''}`, scope);
    }
  }
  const templates = new Map<string, ObjectRef>();
  for (const { group, kind, namespace } of listings.values()) {
    for (const template of await store.list<ResourceTemplate>(group, kind, namespace)) templates.set(refKey(refOf(template)), refOf(template));
  }
  for (const binding of bindings) templates.set(refKey(templateRefOf(binding)), templateRefOf(binding));

  // In each template's message group, so that it queues behind the API's notices for the same template.
  const now = context.clock.now();
  const messages = [...templates].map(([key, ref]) => ({ body: { ref }, groupId: key, deduplicationId: `${key}@resync@${now}` }));
  await context.queues.policyChange.send(messages);
  return messages.length;
}
