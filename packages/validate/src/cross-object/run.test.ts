// The cross-object checks run inside the whole pipeline (runValidation / `eks-gitops validate`), not only when called directly.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runValidation } from "../run.ts";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const FIXTURE = fileURLToPath(new URL("../../fixtures/cross-object/hpa-target-sets-replicas", import.meta.url));

describe("runValidation", () => {
  it("reports cross-object findings with their code and fix hint (an opinion: a warning, the resource stays valid)", async () => {
    const { report } = await runValidation({ root: REPO, paths: [FIXTURE], iamLint: false, read: { cwd: FIXTURE } });
    const deployment = report.resources.find((r) => r.kind === "Deployment");
    expect(deployment?.status).toBe("valid");
    expect(deployment?.findings).toEqual([
      {
        severity: "warning",
        path: "/spec/replicas",
        message: "Deployment shop/web sets spec.replicas (3) but HorizontalPodAutoscaler shop/web owns its replica count",
        rule: "hpa-target-sets-replicas",
        line: 13,
        column: 3,
        hint: "remove spec.replicas from the workload (the overlay's workload must not set `replicas` when it has `autoscaling`); otherwise every Argo CD sync resets the HPA's choice",
      },
    ]);
    expect(report.summary).toEqual({ resources: 2, valid: 2, invalid: 0, error: 0, skipped: 0 });
  }, 120_000);

  it("checks the Karpenter chart's helm values against the pinned values.yaml, with the closest key as the hint", async () => {
    const dir = fileURLToPath(new URL("../../fixtures/cross-object/cluster-name-missing", import.meta.url));
    const { report } = await runValidation({ root: REPO, paths: [dir], iamLint: false, read: { cwd: dir } });
    const unknown = report.resources.flatMap((r) => r.findings).filter((f) => f.rule === "helm-values-unknown-key");
    expect(unknown.map((f) => [f.path, f.severity, f.hint])).toEqual([
      ["/spec/source/helm/valuesObject/settings/aws/clusterName", "warning", "use settings.clusterName (the closest key of the chart's values.yaml), or remove settings.aws.clusterName"],
    ]);
    expect(unknown[0]?.line).toBeGreaterThan(1);
  }, 120_000);
});
