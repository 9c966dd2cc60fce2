// WebApp: a Deployment with an optional Service and HorizontalPodAutoscaler (cdk8s-plus-30).
import { ApiObject, JsonPatch } from "cdk8s";
import * as kplus from "cdk8s-plus-30";
import { Construct } from "constructs";
import type { ResolvedWorkload, ResourceList } from "@eks-gitops/config";
import type { ObjectSources, OverlayPath } from "./sources.ts";

export interface WebAppProps {
  readonly workload: ResolvedWorkload;
  /** The workload's path in the overlay, for {@link WebApp.sources}. @default ["workloads"] */
  readonly source?: OverlayPath;
}

const CONTAINER = "/spec/template/spec/containers/0";

const SERVICE_TYPES = {
  LoadBalancer: kplus.ServiceType.LOAD_BALANCER,
  ClusterIP: kplus.ServiceType.CLUSTER_IP,
  NodePort: kplus.ServiceType.NODE_PORT,
} as const;

const PULL_POLICIES = {
  Always: kplus.ImagePullPolicy.ALWAYS,
  IfNotPresent: kplus.ImagePullPolicy.IF_NOT_PRESENT,
  Never: kplus.ImagePullPolicy.NEVER,
} as const;

/** One web workload. With `autoscaling`, the Deployment has no `spec.replicas`: the HPA owns it. */
export class WebApp extends Construct {
  readonly deployment: kplus.Deployment;
  readonly service: kplus.Service | undefined;
  readonly autoscaler: kplus.HorizontalPodAutoscaler | undefined;
  /** Which overlay field each part of the Deployment, Service and HPA comes from, by object kind. */
  readonly sources: Readonly<Record<"Deployment" | "Service" | "HorizontalPodAutoscaler", ObjectSources>>;

  constructor(scope: Construct, id: string, props: WebAppProps) {
    super(scope, id);
    const w = props.workload;
    const at = props.source ?? ["workloads"];
    const field = (...keys: string[]) => [...at, ...keys];
    this.sources = {
      Deployment: {
        "": at,
        "/metadata/name": field("name"),
        "/metadata/namespace": field("namespace"),
        "/metadata/labels": field("labels"),
        "/spec/replicas": field("replicas"),
        "/spec/selector/matchLabels": field("labels"),
        "/spec/template/metadata/labels": field("labels"),
        "/spec/template/spec/securityContext": field("securityContext"),
        "/spec/template/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/matchExpressions": field("requiredNodeAffinity"),
        [CONTAINER]: at,
        [`${CONTAINER}/name`]: field("name"),
        [`${CONTAINER}/image`]: field("image"),
        [`${CONTAINER}/imagePullPolicy`]: field("imagePullPolicy"),
        [`${CONTAINER}/ports/0/containerPort`]: field("containerPort"),
        [`${CONTAINER}/resources`]: field("resources"),
        [`${CONTAINER}/securityContext`]: field("securityContext"),
      },
      Service: {
        "": field("service"),
        "/metadata/name": field("service", "name"),
        "/metadata/namespace": field("namespace"),
        "/metadata/labels": field("labels"),
        "/metadata/annotations": field("service", "annotations"),
        "/spec/type": field("service", "type"),
        "/spec/loadBalancerClass": field("service", "loadBalancerClass"),
        "/spec/ports/0/port": field("service", "port"),
        "/spec/ports/0/targetPort": field("service", "targetPort"),
        "/spec/selector": field("labels"),
      },
      HorizontalPodAutoscaler: {
        "": field("autoscaling"),
        "/metadata/name": field("name"),
        "/metadata/namespace": field("namespace"),
        "/metadata/labels": field("labels"),
        "/spec/scaleTargetRef": field("name"),
        "/spec/minReplicas": field("autoscaling", "minReplicas"),
        "/spec/maxReplicas": field("autoscaling", "maxReplicas"),
        "/spec/metrics": field("autoscaling", "targetCpuUtilizationPercent"),
      },
    };
    const metadata = { name: w.name, namespace: w.namespace, labels: { ...w.labels } };

    this.deployment = new kplus.Deployment(this, "deployment", {
      metadata,
      // Selector labels are the workload's own, never the construct-path label (selectors are immutable).
      select: false,
      spread: false,
      podMetadata: { labels: { ...w.labels } },
      replicas: w.replicas,
      securityContext: { ensureNonRoot: w.securityContext.runAsNonRoot },
      containers: [
        {
          name: w.name,
          image: w.image,
          imagePullPolicy: PULL_POLICIES[w.imagePullPolicy],
          ports: [{ number: w.containerPort, name: "http" }],
          securityContext: {
            ensureNonRoot: w.securityContext.runAsNonRoot,
            readOnlyRootFilesystem: w.securityContext.readOnlyRootFilesystem,
            allowPrivilegeEscalation: false,
          },
        },
      ],
    });
    this.deployment.select(kplus.LabelSelector.of({ labels: { ...w.labels } }));
    // cdk8s-plus rewrites quantities (cpu "2" -> "2000m", memory "4G" -> "3815Mi") and adds default
    // resources when none are given; the overlay's quantities are written through unchanged instead.
    // Patches pass through the generated KubeDeployment type mapper, so values must be k8s.Quantity.
    const resources = {
      ...(Object.keys(w.resources.requests).length > 0 ? { requests: quantities(w.resources.requests) } : {}),
      ...(Object.keys(w.resources.limits).length > 0 ? { limits: quantities(w.resources.limits) } : {}),
    };
    const deploymentObject = ApiObject.of(this.deployment);
    deploymentObject.addJsonPatch(JsonPatch.add("/spec/template/spec/containers/0/resources", resources));
    // cdk8s-plus labels pods with its construct address; selectors here use the workload's labels only.
    deploymentObject.addJsonPatch(JsonPatch.remove("/spec/template/metadata/labels/cdk8s.io~1metadata.addr"));
    if (w.requiredNodeAffinity.length > 0) {
      deploymentObject.addJsonPatch(
        JsonPatch.add("/spec/template/spec/affinity", {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: w.requiredNodeAffinity.map((t) => ({ key: t.key, operator: t.operator, values: [...t.values] })) }],
            },
          },
        }),
      );
    }

    if (w.service) {
      const s = w.service;
      this.service = new kplus.Service(this, "service", {
        metadata: { name: s.name, namespace: w.namespace, labels: { ...w.labels }, annotations: { ...s.annotations } },
        type: SERVICE_TYPES[s.type],
        ports: [{ name: "http", port: s.port, targetPort: s.targetPort, protocol: kplus.Protocol.TCP }],
      });
      for (const [key, value] of Object.entries(w.labels)) this.service.selectLabel(key, value);
      if (s.loadBalancerClass !== undefined) {
        // ServiceProps has no loadBalancerClass.
        ApiObject.of(this.service).addJsonPatch(JsonPatch.add("/spec/loadBalancerClass", s.loadBalancerClass));
      }
    }

    if (w.autoscaling) {
      const a = w.autoscaling;
      this.autoscaler = new kplus.HorizontalPodAutoscaler(this, "hpa", {
        metadata: { name: w.name, namespace: w.namespace, labels: { ...w.labels } },
        target: this.deployment,
        minReplicas: a.minReplicas,
        maxReplicas: a.maxReplicas,
        metrics: [kplus.Metric.resourceCpu(kplus.MetricTarget.averageUtilization(a.targetCpuUtilizationPercent))],
      });
      // cdk8s-plus writes its own scaling behaviour; without one the API server applies Kubernetes'
      // defaults, which is what `kubectl autoscale` in the lab gets.
      ApiObject.of(this.autoscaler).addJsonPatch(JsonPatch.remove("/spec/behavior"));
    }
  }
}

function quantities(list: ResourceList): Record<string, kplus.k8s.Quantity> {
  return Object.fromEntries(Object.entries(list).map(([k, v]) => [k, kplus.k8s.Quantity.fromString(v)]));
}
