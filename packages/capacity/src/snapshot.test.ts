import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSnapshot, serializeSnapshot, SnapshotError, snapshotFromDescribe, type Ec2InstanceTypeInfo } from "./snapshot.ts";
import { DESCRIBE_FIXTURE_TYPES, describeFixture } from "./testing/describe-fixture.ts";
import { LAB_SNAPSHOT_FILE, labSnapshot } from "./testing/region-snapshot.ts";

const c4: Ec2InstanceTypeInfo = {
  InstanceType: "c4.2xlarge",
  BareMetal: false,
  Hypervisor: "xen",
  SupportedUsageClasses: ["on-demand", "spot"],
  ProcessorInfo: { SupportedArchitectures: ["x86_64"], Manufacturer: "Intel", SustainedClockSpeedInGhz: 2.9 },
  VCpuInfo: { DefaultVCpus: 8 },
  MemoryInfo: { SizeInMiB: 15360 },
  NetworkInfo: { MaximumNetworkInterfaces: 4, Ipv4AddressesPerInterface: 15, DefaultNetworkCardIndex: 0, NetworkCards: [{ NetworkCardIndex: 0, MaximumNetworkInterfaces: 4 }] },
  EbsInfo: { EbsOptimizedSupport: "default", EbsOptimizedInfo: { MaximumBandwidthInMbps: 1000 } },
};
const m6g: Ec2InstanceTypeInfo = {
  InstanceType: "m6g.large",
  Hypervisor: "nitro",
  SupportedUsageClasses: ["on-demand", "spot"],
  ProcessorInfo: { SupportedArchitectures: ["arm64"], Manufacturer: "AWS" },
  VCpuInfo: { DefaultVCpus: 2 },
  MemoryInfo: { SizeInMiB: 8192 },
  NetworkInfo: { Ipv4AddressesPerInterface: 10, DefaultNetworkCardIndex: 0, NetworkCards: [{ NetworkCardIndex: 0, MaximumNetworkInterfaces: 3 }] },
  GpuInfo: { Gpus: [] },
};
const i386: Ec2InstanceTypeInfo = { ...c4, InstanceType: "t1.micro", ProcessorInfo: { SupportedArchitectures: ["i386"] } };
const offerings = [
  { InstanceType: "m6g.large", Location: "ap-southeast-1b", LocationType: "availability-zone" },
  { InstanceType: "c4.2xlarge", Location: "ap-southeast-1b", LocationType: "availability-zone" },
  { InstanceType: "c4.2xlarge", Location: "ap-southeast-1a", LocationType: "availability-zone" },
  { InstanceType: "t1.micro", Location: "ap-southeast-1a", LocationType: "availability-zone" },
];

describe("snapshotFromDescribe", () => {
  it("keeps the fields the simulation uses and the offerings per zone and capacity type", () => {
    const s = snapshotFromDescribe({
      region: "ap-southeast-1",
      instanceTypes: [m6g, c4, i386],
      offerings,
      prices: [{ instanceType: "c4.2xlarge", capacityType: "on-demand", price: 0.462 }, { instanceType: "c4.2xlarge", capacityType: "spot", zone: "ap-southeast-1b", price: 0.13 }],
    });
    expect(s.zones).toEqual(["ap-southeast-1a", "ap-southeast-1b"]);
    expect(s.instanceTypes.map((t) => t.name)).toEqual(["c4.2xlarge", "m6g.large"]);
    expect(s.instanceTypes[0]).toEqual({
      name: "c4.2xlarge",
      architecture: "amd64",
      vcpu: 8,
      memoryMiB: 15360,
      maxNetworkInterfaces: 4,
      ipv4PerInterface: 15,
      hypervisor: "xen",
      bareMetal: false,
      capacityTypes: ["on-demand", "spot"],
      cpuManufacturer: "intel",
      cpuSustainedClockSpeedMhz: 2900,
      ebsBandwidthMbps: 1000,
      encryptionInTransitSupported: false,
      nitroEnclavesSupported: false,
      offerings: [
        { zone: "ap-southeast-1a", capacityType: "on-demand", price: 0.462 },
        { zone: "ap-southeast-1a", capacityType: "spot" },
        { zone: "ap-southeast-1b", capacityType: "on-demand", price: 0.462 },
        { zone: "ap-southeast-1b", capacityType: "spot", price: 0.13 },
      ],
    });
    expect(s.instanceTypes[1]).toMatchObject({ architecture: "arm64", maxNetworkInterfaces: 3, cpuManufacturer: "aws" });
  });

  it("refuses an offering of another region", () => {
    expect(() =>
      snapshotFromDescribe({ region: "us-east-1", instanceTypes: [c4], offerings: [{ InstanceType: "c4.2xlarge", Location: "ap-southeast-1a" }] }),
    ).toThrow(new SnapshotError("offering c4.2xlarge in ap-southeast-1a is not in region us-east-1"));
  });

  it("turns moto's real ap-southeast-1 answers (the committed Describe fixture) into the committed snapshot's entries", () => {
    const fixture = describeFixture();
    const s = snapshotFromDescribe({ region: fixture.region, instanceTypes: [...fixture.instanceTypes], offerings: [...fixture.offerings] });
    expect(s.instanceTypes.map((t) => t.name)).toEqual([...DESCRIBE_FIXTURE_TYPES].sort());
    expect(s.zones).toEqual(["ap-southeast-1a", "ap-southeast-1b", "ap-southeast-1c"]);
    const committed = new Map(labSnapshot().instanceTypes.map((t) => [t.name, t]));
    for (const t of s.instanceTypes) expect(t, t.name).toEqual(committed.get(t.name));
    expect(s.instanceTypes.find((t) => t.name === "t3.2xlarge")).toMatchObject({ vcpu: 8, memoryMiB: 32768, maxNetworkInterfaces: 4, ipv4PerInterface: 15 });
  });
});

describe("serializeSnapshot / parseSnapshot", () => {
  const base = { region: "ap-southeast-1", offerings, capturedAt: "2026-12-03", source: "test" };

  it("writes the same bytes whatever the input order, and reads them back", () => {
    const a = serializeSnapshot(snapshotFromDescribe({ ...base, instanceTypes: [c4, m6g] }));
    const b = serializeSnapshot(snapshotFromDescribe({ ...base, instanceTypes: [m6g, c4], offerings: [...offerings].reverse() }));
    expect(a).toBe(b);
    expect(a.endsWith("}\n")).toBe(true);
    expect(a.indexOf('"capturedAt"')).toBeLessThan(a.indexOf('"instanceTypes"'));
    const parsed = parseSnapshot(a, "x.json");
    expect(serializeSnapshot(parsed)).toBe(a);
    expect(parsed.instanceTypes[0]!.offerings).toHaveLength(4);
  });

  it("names the file and the field of a bad snapshot", () => {
    const good = JSON.parse(serializeSnapshot(snapshotFromDescribe({ ...base, instanceTypes: [c4] })));
    const bad = (mutate: (s: any) => void) => {
      const copy = structuredClone(good);
      mutate(copy);
      return () => parseSnapshot(JSON.stringify(copy), "clusters/x/capacity/instance-types.ap-southeast-1.json");
    };
    const f = "clusters/x/capacity/instance-types.ap-southeast-1.json";
    expect(() => parseSnapshot("{", f)).toThrow(/^clusters\/x\/capacity\/instance-types.ap-southeast-1.json: not valid JSON: /);
    expect(bad((s) => (s.version = 2))).toThrow(`${f}: version: must be 1 (got 2); re-create the file with \`eks-gitops capacity refresh\``);
    expect(bad((s) => delete s.region)).toThrow(`${f}: region: must be a non-empty string`);
    expect(bad((s) => (s.instanceTypes[0].vcpu = -1))).toThrow(`${f}: instanceTypes[0].vcpu: must be a non-negative integer`);
    expect(bad((s) => (s.instanceTypes[0].offerings[1].capacityType = "reserved"))).toThrow(
      `${f}: instanceTypes[0].offerings[1].capacityType: must be "on-demand" or "spot" (got "reserved")`,
    );
    expect(bad((s) => (s.instanceTypes[0].offerings[0].zone = "us-east-1a"))).toThrow(
      `${f}: instanceTypes[0].offerings[0].zone: us-east-1a is not one of zones (ap-southeast-1a, ap-southeast-1b)`,
    );
    expect(bad((s) => s.instanceTypes.push(s.instanceTypes[0]))).toThrow(`${f}: instanceTypes[1].name: duplicate instance type c4.2xlarge`);
    expect(bad((s) => (s.instanceTypes = []))).toThrow(`${f}: instanceTypes: must not be empty`);
  });
});

describe("the whole committed snapshot", () => {
  it("survives parse -> serialize byte for byte (GPUs, accelerators, extended resources included)", () => {
    const text = readFileSync(join(import.meta.dirname, "../../..", LAB_SNAPSHOT_FILE), "utf8");
    expect(serializeSnapshot(labSnapshot())).toBe(text);
    expect(serializeSnapshot(parseSnapshot(text, "x.json"))).toBe(text);
    const parsed = new Map(parseSnapshot(text, "x.json").instanceTypes.map((t) => [t.name, t]));
    expect(parsed.get("g4dn.xlarge")).toMatchObject({ gpu: { name: "t4", manufacturer: "nvidia", count: 1, memoryMiB: 16384 }, extendedResources: { "nvidia.com/gpu": 1 } });
    expect(parsed.get("inf1.xlarge")).toMatchObject({
      accelerator: { name: "inferentia", manufacturer: "aws", count: 1 },
      extendedResources: { "aws.amazon.com/neuron": 1, "aws.amazon.com/neuroncore": 4 },
    });
  });
});
