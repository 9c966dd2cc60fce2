import { describe, expect, it } from "vitest";
import { checkCluster } from "@eks-gitops/config";
import awsCn from "../../../clusters/aws-cn/cluster.ts";
import eksworkshop from "../../../clusters/eksworkshop/cluster.ts";
import { buildKubernetesComponents } from "./build.ts";

function nodeClass(input: unknown, file: string): Record<string, any> {
  const objects = buildKubernetesComponents(checkCluster(input, file)).flatMap((c) => c.objects);
  return objects.find((o) => o.kind === "EC2NodeClass") as Record<string, any>;
}

describe("EC2NodeClass kubelet and blockDeviceMappings", () => {
  it("renders them when the overlay sets them", () => {
    const nc = nodeClass(awsCn, "clusters/aws-cn/cluster.ts");
    expect(nc.spec.kubelet).toEqual({ maxPods: 110, systemReserved: { cpu: "100m", memory: "100Mi" }, evictionHard: { "memory.available": "5%", "nodefs.available": "10%" } });
    expect(nc.spec.blockDeviceMappings).toEqual([
      { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "50Gi", volumeType: "gp3", encrypted: true, deleteOnTermination: true } },
    ]);
  });

  it("renders neither when unset, so Karpenter's defaults apply", () => {
    const nc = nodeClass(eksworkshop, "clusters/eksworkshop/cluster.ts");
    expect(nc.spec.kubelet).toBeUndefined();
    expect(nc.spec.blockDeviceMappings).toBeUndefined();
  });
});
