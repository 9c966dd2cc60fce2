// Each formula against values worked out by hand (the comments show the arithmetic).
import { describe, expect, it } from "vitest";
import {
  categoryAndGeneration,
  describeInstanceType,
  eniLimitedPods,
  instanceTypeLabels,
  kubeReservedCpu,
  memoryCapacity,
  podCapacity,
  resolveInstanceType,
} from "./instance-types.ts";
import { labSnapshot } from "./testing/region-snapshot.ts";
import type { InstanceTypeInfo } from "./types.ts";

const MiB = 2 ** 20;
const GiB = 2 ** 30;

// c4.2xlarge as EC2 describes it: 8 vCPU, 15360 MiB, 4 ENIs x 15 IPv4.
const c4: InstanceTypeInfo = {
  name: "c4.2xlarge",
  architecture: "amd64",
  vcpu: 8,
  memoryMiB: 15360,
  maxNetworkInterfaces: 4,
  ipv4PerInterface: 15,
  hypervisor: "xen",
  bareMetal: false,
  capacityTypes: ["on-demand", "spot"],
  offerings: [{ zone: "ap-southeast-1a", capacityType: "spot" }],
};
const m6g: InstanceTypeInfo = { ...c4, name: "m6g.large", architecture: "arm64", vcpu: 2, memoryMiB: 8192, maxNetworkInterfaces: 3, ipv4PerInterface: 10 };

describe("capacity", () => {
  it("pods: ENIs x (IPv4 per ENI - 1) + 2", () => {
    expect(eniLimitedPods(c4)).toBe(58); // 4 x 14 + 2
    expect(eniLimitedPods(m6g)).toBe(29); // 3 x 9 + 2
    expect(eniLimitedPods(c4, 1)).toBe(44); // 3 x 14 + 2
    expect(eniLimitedPods({ ...c4, maxNetworkInterfaces: 0 })).toBe(0);
  });

  it("pods: maxPods wins, podsPerCore caps, per AMI family", () => {
    expect(podCapacity(c4)).toBe(58);
    expect(podCapacity(c4, { maxPods: 110 })).toBe(110);
    expect(podCapacity(c4, { podsPerCore: 4 })).toBe(32); // min(4 x 8, 58)
    expect(podCapacity(c4, { podsPerCore: 10 })).toBe(58); // min(80, 58)
    expect(podCapacity(c4, { podsPerCore: 4 }, "Bottlerocket")).toBe(58); // Bottlerocket ignores podsPerCore
    expect(podCapacity(c4, {}, "Windows2022")).toBe(110); // no ENI-limited density on Windows
  });

  it("memory: SizeInMiB (- 64 MiB on arm64) - ceil(7.5 %)", () => {
    expect(memoryCapacity(c4)).toBe(14208 * MiB); // 15360 - ceil(1152) = 14208
    expect(memoryCapacity(m6g)).toBe(7518 * MiB); // 8192 - 64 = 8128; 8128 - ceil(609.6) = 7518
    expect(memoryCapacity({ ...c4, memoryMiB: 32768 })).toBe(30310 * MiB); // 32768 - ceil(2457.6) = 30310
  });

  it("kube-reserved CPU: 6 % of core 1, 1 % of core 2, 0.5 % of cores 3-4, 0.25 % of the rest", () => {
    expect(kubeReservedCpu(500)).toBe(30); // 500 x 6 %
    expect(kubeReservedCpu(1000)).toBe(60);
    expect(kubeReservedCpu(1500)).toBe(65); // 60 + 500 x 1 %
    expect(kubeReservedCpu(2000)).toBe(70);
    expect(kubeReservedCpu(4000)).toBe(80); // 60 + 10 + 2000 x 0.5 %
    expect(kubeReservedCpu(8000)).toBe(90); // 80 + 4000 x 0.25 %
    expect(kubeReservedCpu(96000)).toBe(310); // 80 + 92000 x 0.25 %
  });
});

describe("allocatable = capacity - kubeReserved - systemReserved - eviction threshold", () => {
  it("c4.2xlarge with Karpenter's defaults: cpu 7910m, memory 13215Mi, ephemeral-storage 17Gi, pods 58", () => {
    // memory 14208 - (11 x 58 + 255 = 893) - 100 = 13215; storage 20 - 1 - 10 % of 20 = 17.
    expect(describeInstanceType(c4).allocatable).toEqual({ cpu: "7910m", "ephemeral-storage": "17Gi", memory: "13215Mi", pods: "58" });
    expect(describeInstanceType(c4).kubeReserved).toEqual({ cpu: "90m", "ephemeral-storage": "1Gi", memory: "893Mi" });
    expect(describeInstanceType(c4).evictionThreshold).toEqual({ "ephemeral-storage": "2Gi", memory: "100Mi" });
  });

  it("AL2023 keeps the ENI-limited pod count in kube-reserved memory when maxPods is set; Bottlerocket does not", () => {
    const al = resolveInstanceType(c4, { name: "x", kubelet: { maxPods: 110 } });
    expect(al.capacity.pods).toBe(110);
    expect(al.allocatable.memory).toBe(13215 * MiB);
    const br = resolveInstanceType(c4, { name: "x", amiFamily: "Bottlerocket", kubelet: { maxPods: 110 } });
    expect(br.allocatable.memory).toBe((14208 - (11 * 110 + 255) - 100) * MiB); // 12643Mi
  });

  it("applies kubeReserved / systemReserved overrides and evictionHard percentages", () => {
    const r = resolveInstanceType(c4, {
      name: "x",
      rootVolumeSize: "100Gi",
      kubelet: { kubeReserved: { cpu: "200m" }, systemReserved: { cpu: "100m", memory: "100Mi" }, evictionHard: { "memory.available": "5%", "nodefs.available": "15%" } },
    });
    expect(r.allocatable.cpu).toBe(8000 - 200 - 100);
    // memory.available 5 % of 14208 MiB (14898167808 bytes) = 744908390.4, rounded up.
    expect(r.evictionThreshold.memory).toBe(744_908_391);
    expect(r.allocatable.memory).toBe(14208 * MiB - 893 * MiB - 100 * MiB - 744_908_391);
    expect(r.capacity["ephemeral-storage"]).toBe(100 * GiB);
    expect(r.allocatable["ephemeral-storage"]).toBe(100 * GiB - GiB - 15 * GiB);
  });

  it("uses the instance store for ephemeral-storage with RAID0", () => {
    const r = resolveInstanceType({ ...c4, instanceStorageGB: 950 }, { name: "x", instanceStorePolicy: "RAID0" });
    expect(r.capacity["ephemeral-storage"]).toBe(950e9);
  });

  it("t3.2xlarge from the committed ap-southeast-1 snapshot (moto 5.2.5's real data): 7910m allocatable CPU", () => {
    const t3 = labSnapshot().instanceTypes.find((t) => t.name === "t3.2xlarge")!;
    expect(describeInstanceType(t3).allocatable).toEqual({ cpu: "7910m", "ephemeral-storage": "17Gi", memory: "29317Mi", pods: "58" });
  });
});

describe("labels", () => {
  it("reads category and generation from the name like Karpenter's pattern", () => {
    expect(categoryAndGeneration("c6gn.xlarge")).toEqual({ category: "c", generation: "6" });
    expect(categoryAndGeneration("u-6tb1.56xlarge")).toEqual({ category: "u", generation: "1" });
    expect(categoryAndGeneration("c7i-flex.large")).toEqual({ category: "c", generation: "7" });
    expect(categoryAndGeneration("nodot")).toBeUndefined();
  });

  it("defines the well-known instance labels, DoesNotExist (undefined) where the type has none", () => {
    const l = instanceTypeLabels({ ...c4, name: "c7i-flex.large", cpuManufacturer: "intel" }, "ap-southeast-1");
    expect(l.get("karpenter.k8s.aws/instance-family")).toBe("c7i-flex");
    expect(l.get("karpenter.k8s.aws/instance-size")).toBe("large");
    expect(l.get("karpenter.k8s.aws/instance-capability-flex")).toBe("true");
    expect(l.get("karpenter.k8s.aws/instance-cpu")).toBe("8");
    expect(l.get("karpenter.k8s.aws/instance-memory")).toBe("15360");
    expect(l.get("kubernetes.io/os")).toBe("linux");
    expect(l.has("karpenter.k8s.aws/instance-gpu-count")).toBe(true);
    expect(l.get("karpenter.k8s.aws/instance-gpu-count")).toBeUndefined();
    // From the provider's generated bandwidth table (aws-tables.generated.ts).
    expect(l.get("karpenter.k8s.aws/instance-network-bandwidth")).toBe("390");
  });
});
