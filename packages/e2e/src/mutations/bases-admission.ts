// Valid objects of the admission policy kinds (issue 23: ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their
// bindings, served by default from 1.36), written for the mutation corpus: each is accepted by kube-apiserver 1.36.5 as
// it is (checked by differential.e2e.ts before mutating). Their CEL uses the server's environment: params, variables,
// request, authorizer and a Kubernetes library, so edits around them exercise the admission CEL compiler.
const rules = [{ operations: ["CREATE", "UPDATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"], scope: "Namespaced" }];

export const ADMISSION_OBJECTS: readonly Record<string, unknown>[] = [
  {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicy",
    metadata: { name: "mutations-replica-limit" },
    spec: {
      failurePolicy: "Fail",
      paramKind: { apiVersion: "v1", kind: "ConfigMap" },
      matchConstraints: { matchPolicy: "Equivalent", namespaceSelector: { matchLabels: { "mutations.example.com/policed": "true" } }, resourceRules: rules },
      matchConditions: [{ name: "not-system", expression: "!request.userInfo.groups.exists(g, g == 'system:masters')" }],
      variables: [
        { name: "replicas", expression: "object.spec.?replicas.orValue(1)" },
        { name: "limit", expression: "int(params.data.?maxReplicas.orValue('10'))" },
      ],
      validations: [
        { expression: "variables.replicas <= variables.limit", messageExpression: "'at most ' + string(variables.limit) + ' replicas'", reason: "Invalid" },
        { expression: "object.spec.template.spec.containers.all(c, has(c.resources) && has(c.resources.limits))", message: "every container needs limits" },
      ],
      auditAnnotations: [{ key: "replicas", valueExpression: "variables.replicas > 5 ? string(variables.replicas) : 'few'" }],
    },
  },
  {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicyBinding",
    metadata: { name: "mutations-replica-limit" },
    spec: {
      policyName: "mutations-replica-limit",
      validationActions: ["Deny", "Audit"],
      paramRef: { name: "replica-limit", namespace: "mutations", parameterNotFoundAction: "Deny" },
      matchResources: { namespaceSelector: { matchLabels: { env: "prod" } } },
    },
  },
  {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicy",
    metadata: { name: "mutations-team-label" },
    spec: {
      failurePolicy: "Fail",
      reinvocationPolicy: "Never",
      matchConstraints: { resourceRules: rules },
      matchConditions: [{ name: "unlabelled", expression: "!has(object.metadata.labels) || !('team' in object.metadata.labels)" }],
      variables: [{ name: "team", expression: "namespaceObject.metadata.?labels['team'].orValue('platform')" }],
      mutations: [{ patchType: "ApplyConfiguration", applyConfiguration: { expression: "Object{metadata: Object.metadata{labels: {'team': variables.team}}}" } }],
    },
  },
  {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicyBinding",
    metadata: { name: "mutations-team-label" },
    spec: { policyName: "mutations-team-label", matchResources: { namespaceSelector: { matchExpressions: [{ key: "team", operator: "DoesNotExist" }] } } },
  },
];
