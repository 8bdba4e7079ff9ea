import * as z from 'zod';
import { int32, qualifiedName } from './meta';

/**
 * Karmada's FailoverBehavior (pkg/apis/policy/v1alpha1/propagation_types.go): how an application is
 * migrated when it or its cluster fails. outrank keeps it as written and carries it to the binding
 * (spec.failover), as Karmada's detector does; it does not migrate applications itself.
 */

/** How the copy left on the cluster an application moves from is removed. */
export const purgeMode = z.enum(['Directly', 'Gracefully', 'Never']);
export type PurgeMode = z.infer<typeof purgeMode>;

const statePreservationSchema = z
  .strictObject({
    rules: z
      .array(
        z.strictObject({
          aliasLabelName: qualifiedName.meta({ description: 'The label key the preserved value is passed to the new cluster under.' }),
          jsonPath: z.string().max(1024).meta({ description: 'A Kubernetes JSONPath template, from the resource status, of the value to preserve.' }),
        }),
      )
      .max(64),
  })
  .meta({ description: 'The state kept from the cluster an application leaves and given to the new one, as labels.' });

/** Karmada's CRD defaults, which its API server writes and its rules are checked after (pkg/util/helper/policy.go, SetDefaultGracePeriodSeconds). */
export const DEFAULT_TOLERATION_SECONDS = 300;
export const DEFAULT_GRACE_PERIOD_SECONDS = 600;

const applicationFailoverSchema = z
  .strictObject({
    decisionConditions: z
      .strictObject({
        tolerationSeconds: int32.optional().meta({ description: `How long the application must stay unhealthy before it is migrated; default ${DEFAULT_TOLERATION_SECONDS}, 0 at once.` }),
      })
      .meta({ description: 'When a failing application is migrated.' }),
    purgeMode: purgeMode.optional().meta({ description: 'Directly, Gracefully (default) or Never: how the copy on the failed cluster is removed.' }),
    gracePeriodSeconds: int32.optional().meta({ description: `With purgeMode Gracefully, how long the old copy is kept at most; default ${DEFAULT_GRACE_PERIOD_SECONDS}.` }),
    statePreservation: statePreservationSchema.optional(),
  })
  .superRefine((application, context) => {
    // Karmada's ValidateApplicationFailover (pkg/util/validation/validation.go), after its defaults:
    // purgeMode Gracefully, and then gracePeriodSeconds 600, so that "should not be empty when purgeMode
    // is gracefully" cannot arise through the API.
    const tolerationSeconds = application.decisionConditions.tolerationSeconds ?? DEFAULT_TOLERATION_SECONDS;
    if (tolerationSeconds < 0) {
      context.addIssue({ code: 'custom', path: ['decisionConditions', 'tolerationSeconds'], message: 'must be greater than or equal to 0' });
    }
    const gracefully = (application.purgeMode ?? 'Gracefully') === 'Gracefully';
    if (!gracefully && application.gracePeriodSeconds !== undefined) {
      context.addIssue({ code: 'custom', path: ['gracePeriodSeconds'], message: 'only takes effect when purgeMode is gracefully' });
    }
    if (application.gracePeriodSeconds !== undefined && application.gracePeriodSeconds <= 0) {
      context.addIssue({ code: 'custom', path: ['gracePeriodSeconds'], message: 'must be greater than 0' });
    }
  })
  .meta({ description: 'Migration of an application that fails on its cluster.' });

const clusterFailoverSchema = z
  .strictObject({
    purgeMode: z.enum(['Directly', 'Gracefully']).optional().meta({ description: 'Directly or Gracefully (default): how the copy on the failed cluster is removed.' }),
    statePreservation: statePreservationSchema.optional(),
  })
  .meta({ description: 'Migration of the applications of a cluster that fails.' });

export const failoverSchema = z
  .strictObject({
    application: applicationFailoverSchema.optional(),
    cluster: clusterFailoverSchema.optional(),
  })
  .meta({
    description:
      "Karmada's failover behaviour, kept as written and carried to the binding's spec.failover for whatever propagates placements; outrank does not act on it.",
  });
export type FailoverBehavior = z.infer<typeof failoverSchema>;
