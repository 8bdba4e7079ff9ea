import { refKey, refOf, templateRefOf, type ObjectRef } from '../api/kinds';
import type { ResourceBinding } from '../api/resource-binding';
import type { ResourceTemplate } from '../api/resource-template';
import { selectedTemplateKinds } from '../policy/selector-index';
import { bindingInformers, syncBindings } from './binding-informers';
import { bindingRefFor } from './binding-references';
import type { ControllerContext } from './context';
import { TemplateClaims } from './template-claims';

/**
 * A level-triggered backstop, as Kubernetes controllers resync their informers: every template a policy
 * selects and every template a binding names is compared, in memory, with its binding as the claim rules
 * would make it now, and only those out of step go to policy-change again. A write whose notice never
 * went out (the API failed after storing it and the client did not retry) then still reaches its
 * binding, and a binding whose template is gone is removed. The store is read through the informers'
 * change feeds; what is sent is proportional to what is out of step. Returns how many were sent.
 */
export async function resyncTemplates(context: ControllerContext): Promise<number> {
  const claims = new TemplateClaims(context);
  await Promise.all([syncBindings(context), claims.syncClaimInputs()]);
  const [policies, clusterPolicies] = context.informers.policies();

  const templates = new Map<string, { ref: ObjectRef; template: ResourceTemplate | undefined }>();
  const kinds = selectedTemplateKinds([...policies!.values(), ...clusterPolicies!.values()]);
  const bindings = bindingInformers(context).flatMap((informer) => [...informer.values()]);
  for (const binding of bindings) {
    const ref = templateRefOf(binding);
    kinds.set(`${ref.kind}.${ref.group}`, { group: ref.group, kind: ref.kind });
  }
  for (const { group, kind } of kinds.values()) {
    const informer = context.informers.templates(group, kind);
    await informer.sync(context.batch);
    for (const template of informer.values()) templates.set(refKey(refOf(template)), { ref: refOf(template), template });
  }
  for (const binding of bindings) {
    const ref = templateRefOf(binding);
    if (!templates.has(refKey(ref))) templates.set(refKey(ref), { ref, template: undefined });
  }

  const bindingsByRef = new Map(bindings.map((binding: ResourceBinding) => [refKey(refOf(binding)), binding]));
  const outOfStep: Array<[string, ObjectRef]> = [];
  for (const [key, { ref, template }] of templates) {
    if (claims.isOutOfStep(template, bindingsByRef.get(refKey(bindingRefFor(ref))))) outOfStep.push([key, ref]);
  }

  // In each template's message group, so that it queues behind the API's notices for the same template.
  const now = context.clock.now();
  const messages = outOfStep.map(([key, ref]) => ({ body: { ref }, groupId: key, deduplicationId: `${key}@resync@${now}` }));
  await context.queues.policyChange.send(messages);
  return messages.length;
}
