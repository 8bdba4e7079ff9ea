import { describe, expect, it } from 'vitest';
import { bindingRequestSchema, queuedBindingSchema } from '../../functions/messages';
import { bindingName } from '../../lib/api/binding-name';
import type { ResourceBinding } from '../../lib/api/resource-binding';
import { bindingRefOf } from '../../lib/controllers/binding-references';
import { schedulingRequest } from '../../lib/controllers/binding-requests';
import { bindingGroupId } from '../../lib/controllers/messages';

/** The binding of a Deployment named with 253 characters in a namespace of 63, at a DynamoDB-length version. */
const longest: ResourceBinding = {
  apiVersion: 'work.karmada.io/v1alpha2',
  kind: 'ResourceBinding',
  metadata: { name: bindingName('w'.repeat(253), 'Deployment'), namespace: 'n'.repeat(63), resourceVersion: '0'.repeat(21) },
  spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'n'.repeat(63), name: 'w'.repeat(253) } },
};
const version = longest.metadata.resourceVersion!;

describe('queue messages about a binding of the longest names', () => {
  it.each([
    ['its own change', undefined],
    ['a commit that preempted it (schedule-cycle)', `${bindingGroupId(bindingRefOf(longest))}@${version}@preempted`],
    ['room freed by an unschedulable binding of the longest names', `${bindingGroupId(bindingRefOf(longest))}@${'9'.repeat(64)}@unschedulable`],
    ['a deleted cluster of the longest name (cluster-failover)', `Cluster/${'c'.repeat(253)}@deleted@${Number.MAX_SAFE_INTEGER}`],
  ])('are taken by binding-enqueue for %s', (_, cause) => {
    const message = schedulingRequest(longest, cause, ['c'.repeat(253)]);
    expect(bindingRequestSchema.parse(JSON.parse(JSON.stringify(message.body)))).toEqual(message.body);
  });

  it('are taken by binding-enqueue when woken for no cluster (a Divided binding of 0 replicas needs no room)', () => {
    const message = schedulingRequest(longest, `${bindingGroupId(bindingRefOf(longest))}@${version}@preempted`, []);
    expect(message.body).not.toHaveProperty('wokenFor');
    expect(bindingRequestSchema.parse(JSON.parse(JSON.stringify(message.body)))).toEqual(message.body);
  });

  it('are taken by the band queues', () => {
    const body = { binding: bindingRefOf(longest), priority: -2_147_483_648, enqueuedAt: Date.now(), wokenFor: ['c'.repeat(253)] };
    expect(queuedBindingSchema.parse(JSON.parse(JSON.stringify(body)))).toEqual(body);
  });
});
