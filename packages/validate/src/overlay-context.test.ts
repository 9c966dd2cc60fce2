// Single-file validate: a file inside clusters/<name>/rendered is checked with the overlay's other files as
// context; loose files get no error for what they leave out, and the run says once what it could not check.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { formatReport, formatText, OUTPUT_FORMATS } from "./output/format.ts";
import { writeReport } from "./output/write.ts";
import { runValidation } from "./run.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const RENDERED = join(REPO, "clusters/eksworkshop/rendered");
const HPA = join(RENDERED, "workload-nlb-app-karpenter/autoscaling_v2_horizontalpodautoscaler_nlb-app-karpenter_nginx-deployment.yaml");
const NODEPOOL = join(RENDERED, "karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml");

// a copy of the overlay inside the repository (so that cluster.ts resolves @eks-gitops/config)
const scratch = mkdtempSync(join(REPO, "packages/validate/node_modules/.overlay-context-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (paths: string[], root = REPO, cwd = REPO) => runValidation({ root, paths, read: { cwd } });

describe("single-file validate inside an overlay", () => {
  it("validates the committed HPA alone, its Deployment read as context (exit 0, nothing reported on the Deployment)", async () => {
    const { report } = await run([HPA]);
    expect(report.resources.map((r) => [r.kind, r.status, r.findings])).toEqual([["HorizontalPodAutoscaler", "valid", []]]);
    expect(report.notChecked).toBeUndefined();
  }, 120_000);

  it("validates the committed NodePool alone: its EC2NodeClass is found in the overlay", async () => {
    const { report } = await run([NODEPOOL]);
    expect(report.resources.map((r) => [r.kind, r.status, r.findings])).toEqual([["NodePool", "valid", []]]);
  }, 120_000);

  it("still reports a target the overlay does not render, on the given file only", async () => {
    const root = join(scratch, "repo");
    mkdirSync(join(root, "clusters"), { recursive: true });
    cpSync(join(REPO, "clusters/eksworkshop"), join(root, "clusters/eksworkshop"), { recursive: true });
    writeFileSync(join(root, "package.json"), "{}\n");
    const hpa = join(root, "clusters/eksworkshop/rendered/workload-nlb-app-karpenter/autoscaling_v2_horizontalpodautoscaler_nlb-app-karpenter_nginx-deployment.yaml");
    writeFileSync(hpa, readFileSync(hpa, "utf8").replace("name: nginx-deployment\n", "name: nginx-deploymnt\n").replace(/(scaleTargetRef:[\s\S]*?name: )nginx-deployment/, "$1nginx-deploymnt"));
    const { report } = await run([hpa], root, root);
    expect(report.resources).toHaveLength(1);
    expect(report.resources[0]?.status).toBe("invalid");
    expect(report.resources[0]?.findings.map((f) => f.rule)).toEqual(["hpa-target-missing"]);
  }, 120_000);
});

describe("loose files", () => {
  it("do not fail on a reference to an object not given, and say once what was not checked, paths relative to the folder typed in", async () => {
    const dir = join(scratch, "scratch/myapp");
    mkdirSync(dir, { recursive: true });
    const text = readFileSync(HPA, "utf8");
    writeFileSync(join(dir, "app.yaml"), text.replace("minReplicas:", "minReplicas: 0\n  x-minReplicas:"));
    const { report } = await run(["myapp/"].map((p) => join(scratch, "scratch", p)), REPO, join(scratch, "scratch"));
    expect(report.notChecked).toEqual(["HorizontalPodAutoscaler nlb-app-karpenter/nginx-deployment -> Deployment nlb-app-karpenter/nginx-deployment"]);
    expect(report.resources[0]?.file).toBe("myapp/app.yaml");
    expect(report.resources[0]?.findings.some((f) => f.rule === "hpa-target-missing")).toBe(false);
    const text2 = formatText(report);
    expect(text2).toMatch(/^myapp\/app\.yaml:\d+:\d+ /m);
    expect(JSON.parse(formatReport(report, "json")).notChecked).toEqual(report.notChecked);
    for (const format of OUTPUT_FORMATS) {
      let written = "";
      writeReport(report, format, {}, (chunk) => {
        written += chunk;
      });
      expect(written, format).toBe(formatReport(report, format));
    }
    expect(text2).toContain("\nNot checked: 1 reference to objects not among the given files (HorizontalPodAutoscaler nlb-app-karpenter/nginx-deployment -> Deployment nlb-app-karpenter/nginx-deployment)");
  }, 120_000);
});
