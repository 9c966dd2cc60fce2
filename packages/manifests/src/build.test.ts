import { describe, expect, it } from "vitest";
import { checkCluster } from "@eks-gitops/config";
import eksworkshop from "../../../clusters/eksworkshop/cluster.ts";
import { buildKubernetesComponents, type KubeObject } from "./build.ts";

const config = checkCluster(eksworkshop, "clusters/eksworkshop/cluster.ts");
const components = buildKubernetesComponents(config);

function find(kind: string, name: string, namespace?: string): Record<string, any> {
  const all = components.flatMap((c) => c.objects);
  const o = all.find((x: KubeObject) => x.kind === kind && x.metadata.name === name && x.metadata.namespace === namespace);
  if (!o) throw new Error(`no ${kind} ${namespace ?? ""}/${name} among ${all.map((x) => `${x.kind}/${x.metadata.name}`).join(", ")}`);
  return o as Record<string, any>;
}

describe("eksworkshop: the lab's values, field by field", () => {
  it("groups objects into the expected components", () => {
    expect(components.map((c) => c.name)).toEqual(["karpenter-nodepools", "workload-nlb-app-karpenter", "workload-nlb-app-ondemand"]);
  });

  it("NodePool default", () => {
    const np = find("NodePool", "default");
    expect(np.apiVersion).toBe("karpenter.sh/v1");
    expect(np.spec.template.metadata.labels).toEqual({ intent: "apps" });
    expect(np.spec.template.spec.nodeClassRef).toEqual({ group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" });
    expect(np.spec.template.spec.requirements).toEqual([
      { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
      { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] },
      { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
      { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["2"] },
      { key: "karpenter.k8s.aws/instance-size", operator: "NotIn", values: ["nano", "micro", "small", "medium", "large"] },
    ]);
    expect(np.spec.template.spec.expireAfter).toBe("720h");
    expect(np.spec.limits).toEqual({ cpu: "1000", memory: "1000Gi" });
    expect(np.spec.disruption).toEqual({ consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m" });
  });

  it("EC2NodeClass default", () => {
    const nc = find("EC2NodeClass", "default");
    expect(nc.apiVersion).toBe("karpenter.k8s.aws/v1");
    expect(nc.spec.role).toBe("KarpenterNodeRole-eksworkshop");
    expect(nc.spec.amiSelectorTerms).toEqual([{ alias: "al2023@latest" }]);
    expect(nc.spec.subnetSelectorTerms).toEqual([{ tags: { "karpenter.sh/discovery": "eksworkshop" } }]);
    expect(nc.spec.securityGroupSelectorTerms).toEqual([{ tags: { "karpenter.sh/discovery": "eksworkshop" } }]);
  });

  it("Deployment nginx-deployment leaves replicas to the HPA", () => {
    const d = find("Deployment", "nginx-deployment", "nlb-app-karpenter");
    expect(d.spec).not.toHaveProperty("replicas");
    expect(d.spec.selector).toEqual({ matchLabels: { "app.kubernetes.io/name": "nginx" } });
    expect(d.spec.template.metadata.labels).toEqual({ "app.kubernetes.io/name": "nginx" });
    const [c] = d.spec.template.spec.containers;
    expect(c.image).toBe("public.ecr.aws/nginx/nginx:1.31-alpine-slim");
    expect(c.imagePullPolicy).toBe("Always");
    expect(c.ports).toEqual([{ containerPort: 80, name: "http" }]);
    expect(c.resources).toEqual({ requests: { cpu: "2", memory: "4G" }, limits: { cpu: "2", memory: "4G" } });
  });

  it("Service service-nginx is an internet-facing NLB with IP targets", () => {
    const s = find("Service", "service-nginx", "nlb-app-karpenter");
    expect(s.spec.type).toBe("LoadBalancer");
    expect(s.spec.loadBalancerClass).toBe("service.k8s.aws/nlb");
    expect(s.metadata.annotations).toEqual({
      "service.beta.kubernetes.io/aws-load-balancer-scheme": "internet-facing",
      "service.beta.kubernetes.io/aws-load-balancer-nlb-target-type": "ip",
    });
    expect(s.spec.ports).toEqual([{ name: "http", port: 80, targetPort: 80, protocol: "TCP" }]);
    expect(s.spec.selector).toEqual({ "app.kubernetes.io/name": "nginx" });
  });

  it("HPA nginx-deployment: autoscaling/v2, 3..12, CPU 10%, Kubernetes default behaviour", () => {
    const h = find("HorizontalPodAutoscaler", "nginx-deployment", "nlb-app-karpenter");
    expect(h.apiVersion).toBe("autoscaling/v2");
    expect(h.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: "nginx-deployment" });
    expect(h.spec.minReplicas).toBe(3);
    expect(h.spec.maxReplicas).toBe(12);
    expect(h.spec.metrics).toEqual([{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 10 } } }]);
    expect(h.spec).not.toHaveProperty("behavior");
  });

  it("On-Demand smoke-test app: 3 replicas, no resources, required ON_DEMAND affinity", () => {
    const d = find("Deployment", "nginx-deployment", "nlb-app-ondemand");
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.template.spec.containers[0].resources).toEqual({});
    expect(d.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: "eks.amazonaws.com/capacityType", operator: "In", values: ["ON_DEMAND"] }] },
    ]);
    expect(find("Service", "service-nginx", "nlb-app-ondemand").spec.loadBalancerClass).toBe("service.k8s.aws/nlb");
  });

  it("creates each workload namespace once", () => {
    expect(find("Namespace", "nlb-app-karpenter").apiVersion).toBe("v1");
    expect(find("Namespace", "nlb-app-ondemand").apiVersion).toBe("v1");
  });
});
