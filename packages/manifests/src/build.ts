// buildKubernetesComponents(): every Kubernetes object of an overlay, grouped by component, in memory.
import { App, Chart } from "cdk8s";
import * as kplus from "cdk8s-plus-30";
import { COMPONENTS, workloadComponent, type ClusterConfig } from "@eks-gitops/config";
import { Ec2NodeClass } from "./ec2-node-class.ts";
import { KarpenterNodePool } from "./node-pool.ts";
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
  const charts: { name: string; chart: Chart }[] = [];

  const pools = new Chart(app, COMPONENTS.nodePools, { disableResourceNameHashes: true });
  for (const nc of config.nodeClasses) new Ec2NodeClass(pools, `nodeclass-${nc.name}`, { nodeClass: nc });
  for (const np of config.nodePools) new KarpenterNodePool(pools, `nodepool-${np.name}`, { pool: np });
  charts.push({ name: COMPONENTS.nodePools, chart: pools });

  const namespaces = [...new Set(config.workloads.map((w) => w.namespace))].sort();
  for (const ns of namespaces) {
    const name = workloadComponent(ns);
    const chart = new Chart(app, name, { disableResourceNameHashes: true });
    new kplus.Namespace(chart, "namespace", { metadata: { name: ns } });
    for (const w of config.workloads.filter((x) => x.namespace === ns)) new WebApp(chart, w.name, { workload: w });
    charts.push({ name, chart });
  }

  const errors = charts.flatMap(({ chart }) =>
    chart.node.findAll().flatMap((c) => c.node.validate().map((m) => `${c.node.path}: ${m}`)),
  );
  if (errors.length > 0) throw new SynthValidationError(errors);

  return charts.map(({ name, chart }) => ({ name, objects: chart.toJson() as KubeObject[] }));
}
