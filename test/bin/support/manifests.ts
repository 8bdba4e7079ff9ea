/** A small system in two namespaces: one cluster, two priority classes, a policy per namespace, three deployments. */
export const SYSTEM_YAML = `
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1}
status: {resourceSummary: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
description: important work
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
preemptionPolicy: Never
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: by-pod-priority}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  schedulePriority: {priorityClassSource: PodPriorityClass}
  placement: {clusterAffinity: {clusterNames: [member1]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: team-b-deployments, namespace: team-b}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  priority: 5
  preemption: Never
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {priorityClassName: high, containers: [{name: web, image: nginx, resources: {requests: {cpu: "1"}}}]}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: batch, labels: {app: batch}}
spec:
  replicas: 1
  selector: {matchLabels: {app: batch}}
  template: {metadata: {labels: {app: batch}}, spec: {priorityClassName: low, containers: [{name: batch, image: busybox, resources: {requests: {cpu: "1"}}}]}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: team-b, labels: {app: web}}
spec:
  replicas: 1
  selector: {matchLabels: {app: api}}
  template: {metadata: {labels: {app: api}}, spec: {containers: [{name: api, image: api, resources: {requests: {cpu: "1"}}}]}}
`;
