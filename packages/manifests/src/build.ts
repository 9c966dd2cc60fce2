// buildKubernetesComponents(): every Kubernetes object of an overlay, grouped by component, in memory.
import { App, Chart } from "cdk8s";
import * as kplus from "cdk8s-plus-30";
import { COMPONENTS, workloadComponent, type ClusterConfig } from "@eks-gitops/config";
import { Ec2NodeClass } from "./ec2-node-class.ts";
import { KarpenterNodePool } from "./node-pool.ts";
import { type ObjectSources, sourceKey } from "./sources.ts";
import { WebApp } from "./web-app.ts";

/** A Kubernetes object as plain JSON. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly [k: string]: unknown };
  readonly [k: string]: unknown;
}

/** One folder of rendered output and, in Argo CD, one Application. */
export interface Component {
  readonly name: string;
  readonly objects: readonly KubeObject[];
  /** Where each object's fields came from in the overlay, by {@link sourceKey} (objects the overlay does not describe field by field have none). */
  readonly sources?: ReadonlyMap<string, ObjectSources>;
}

/** Construct-level validation failed (cdk8s `node.addValidation`); messages carry the construct path. */
export class SynthValidationError extends Error {
  constructor(readonly messages: readonly string[]) {
    super(messages.join("\n"));
    this.name = "SynthValidationError";
  }
}

/** Builds the NodePool/EC2NodeClass component and one component per workload namespace. Pure. */
export function buildKubernetesComponents(config: ClusterConfig): Component[] {
  const app = new App();
  const charts: { name: string; chart: Chart; sources: Map<string, ObjectSources> }[] = [];

  const pools = new Chart(app, COMPONENTS.nodePools, { disableResourceNameHashes: true });
  const poolSources = new Map<string, ObjectSources>();
  config.nodeClasses.forEach((nc, i) => {
    const c = new Ec2NodeClass(pools, `nodeclass-${nc.name}`, { nodeClass: nc, source: ["nodeClasses", i] });
    poolSources.set(sourceKey({ kind: c.kind, metadata: { name: nc.name } }), c.sources);
  });
  config.nodePools.forEach((np, i) => {
    const p = new KarpenterNodePool(pools, `nodepool-${np.name}`, { pool: np, source: ["nodePools", i] });
    poolSources.set(sourceKey({ kind: p.kind, metadata: { name: np.name } }), p.sources);
  });
  charts.push({ name: COMPONENTS.nodePools, chart: pools, sources: poolSources });

  const namespaces = [...new Set(config.workloads.map((w) => w.namespace))].sort();
  for (const ns of namespaces) {
    const name = workloadComponent(ns);
    const chart = new Chart(app, name, { disableResourceNameHashes: true });
    const sources = new Map<string, ObjectSources>();
    new kplus.Namespace(chart, "namespace", { metadata: { name: ns } });
    sources.set(sourceKey({ kind: "Namespace", metadata: { name: ns } }), { "": ["workloads", config.workloads.findIndex((w) => w.namespace === ns), "namespace"] });
    config.workloads.forEach((w, i) => {
      if (w.namespace !== ns) return;
      const app = new WebApp(chart, w.name, { workload: w, source: ["workloads", i] });
      sources.set(sourceKey({ kind: "Deployment", metadata: { name: w.name, namespace: ns } }), app.sources.Deployment);
      if (w.service) sources.set(sourceKey({ kind: "Service", metadata: { name: w.service.name, namespace: ns } }), app.sources.Service);
      if (w.autoscaling) sources.set(sourceKey({ kind: "HorizontalPodAutoscaler", metadata: { name: w.name, namespace: ns } }), app.sources.HorizontalPodAutoscaler);
    });
    charts.push({ name, chart, sources });
  }

  const errors = charts.flatMap(({ chart }) =>
    chart.node.findAll().flatMap((c) => c.node.validate().map((m) => `${c.node.path}: ${m}`)),
  );
  if (errors.length > 0) throw new SynthValidationError(errors);

  return charts.map(({ name, chart, sources }) => ({ name, objects: chart.toJson() as KubeObject[], sources }));
}
