import { POLICY_GROUP } from '../api/propagation-policy';
import { clusterChanged } from './cluster-failover';
import type { ControllerContext } from './context';
import type { ObjectChange } from './messages';
import { isNamespace, namespaceChanged } from './namespace-deletion';
import { TemplateClaims } from './template-claims';

/**
 * policy-change: a policy or template changed (template claims, template-claims.ts), or a cluster did
 * (failover and waking waiting bindings, cluster-failover.ts), or a namespace is being deleted
 * (namespace-deletion.ts).
 */
export class PolicyChangeController {
  private readonly claims: TemplateClaims;

  constructor(private readonly context: ControllerContext) {
    this.claims = new TemplateClaims(context);
  }

  async handle(change: ObjectChange): Promise<void> {
    const { ref } = change;
    if (ref.group === POLICY_GROUP && (ref.kind === 'PropagationPolicy' || ref.kind === 'ClusterPropagationPolicy')) {
      await this.claims.policyChanged(ref);
    } else if (ref.group === 'cluster.karmada.io' && ref.kind === 'Cluster') {
      await clusterChanged(this.context, ref.name);
    } else if (isNamespace(ref)) {
      // A Namespace is a template too (its binding); being deleted, what it holds goes first.
      await namespaceChanged(this.context, ref.name);
      await this.claims.templateChanged(ref);
    } else {
      await this.claims.templateChanged(ref);
    }
  }
}
