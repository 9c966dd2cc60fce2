// The EKS calls moto lacks (add-ons, access entries, pod identity), tested with aws-sdk-client-mock at the SDK boundary.
import {
  CreateAccessEntryCommand,
  CreateAddonCommand,
  CreatePodIdentityAssociationCommand,
  DeleteAccessEntryCommand,
  DeleteAddonCommand,
  EKSClient,
  ResourceNotFoundException,
} from "@aws-sdk/client-eks";
import { mockClient } from "aws-sdk-client-mock";
import { beforeEach, describe, expect, it } from "vitest";
import type { AwsClients } from "./aws.ts";
import { executePlan } from "./execute.ts";
import type { Plan } from "./plan.ts";

const eks = new EKSClient({ region: "ap-southeast-1", credentials: { accessKeyId: "x", secretAccessKey: "y" } });
const mock = mockClient(eks);
const clients = { eks } as unknown as AwsClients;
const NODE = "arn:aws:iam::133129065110:role/KarpenterNodeRole-eksworkshop";
const TAGS = { "eks-gitops/managed-by": "eks-gitops", "eks-gitops/cluster": "eksworkshop" };

const plan = (...ops: Plan["changes"][number]["op"][]): Plan => ({
  action: "apply",
  cluster: "eksworkshop",
  account: "133129065110",
  region: "ap-southeast-1",
  changes: ops.map((op) => ({ marker: "+", group: "addons", resource: op.type, detail: "", op })),
  notes: [],
  blockers: [],
});

beforeEach(() => mock.reset());

describe("EKS add-on and access entry writes", () => {
  it("creates the metrics-server add-on and an EC2_LINUX access entry with the managed tags", async () => {
    mock.on(CreateAddonCommand).resolves({ addon: { addonName: "metrics-server", status: "CREATING" } });
    mock.on(CreateAccessEntryCommand).resolves({ accessEntry: { principalArn: NODE, type: "EC2_LINUX" } });
    const r = await executePlan(plan({ type: "createAddon", name: "metrics-server", tags: TAGS }, { type: "createAccessEntry", principalArn: NODE, tags: TAGS }), { clients, cluster: "eksworkshop" });
    expect(r.error).toBeUndefined();
    expect(mock.commandCalls(CreateAddonCommand).map((c) => c.args[0].input)).toEqual([{ clusterName: "eksworkshop", addonName: "metrics-server", tags: TAGS }]);
    expect(mock.commandCalls(CreateAccessEntryCommand).map((c) => c.args[0].input)).toEqual([{ clusterName: "eksworkshop", principalArn: NODE, type: "EC2_LINUX", tags: TAGS }]);
  });

  it("creates the Pod Identity association for the controller's service account", async () => {
    mock.on(CreatePodIdentityAssociationCommand).resolves({ association: { associationId: "a-1" } });
    await executePlan(
      plan({ type: "createPodIdentityAssociation", namespace: "kube-system", serviceAccount: "karpenter", roleArn: "arn:aws:iam::133129065110:role/KarpenterControllerRole-eksworkshop", tags: TAGS }),
      { clients, cluster: "eksworkshop" },
    );
    expect(mock.commandCalls(CreatePodIdentityAssociationCommand)[0]!.args[0].input).toEqual({
      clusterName: "eksworkshop",
      namespace: "kube-system",
      serviceAccount: "karpenter",
      roleArn: "arn:aws:iam::133129065110:role/KarpenterControllerRole-eksworkshop",
      tags: TAGS,
    });
  });

  it("deletes them on destroy and stops at the first failure", async () => {
    mock.on(DeleteAccessEntryCommand).resolves({});
    mock.on(DeleteAddonCommand).rejects(new ResourceNotFoundException({ message: "No addon: metrics-server", $metadata: {} }));
    const r = await executePlan(plan({ type: "deleteAccessEntry", principalArn: NODE }, { type: "deleteAddon", name: "metrics-server" }, { type: "deleteAddon", name: "never-reached" }), {
      clients,
      cluster: "eksworkshop",
    });
    expect(r.results.map((x) => x.ok)).toEqual([true, false]);
    expect(r.error?.message).toBe("No addon: metrics-server");
    expect(mock.commandCalls(DeleteAddonCommand).map((c) => c.args[0].input.addonName)).toEqual(["metrics-server"]);
  });
});
