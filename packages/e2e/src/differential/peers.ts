// The other offline validators on the differential's corpus: kubeconform v0.7.0 -strict and kubectl-validate, both fed
// the same pinned catalog as ours (kubeconform: converted to JSON Schema as published, without the Go enums the
// validator adds; kubectl-validate: the OpenAPI v3 documents and CRDs themselves), run without network access.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offline, writeKubeconformSchemas, writeKubectlValidateSchemas } from "@eks-gitops/validate/testing";
import { REPO_ROOT } from "../harness/repo.ts";
import type { Outcome } from "./verdicts.ts";

export type Peer = "kubeconform" | "kubectl-validate";

/** Paths of the cached peer binaries (test-tools/build.sh prints them; a cache miss builds them). */
export function peerBinaries(): Record<Peer, string> {
  const out = execFileSync("bash", [join(REPO_ROOT, "test-tools", "build.sh"), "kubeconform", "kubectl-validate"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const [kubeconform, kubectlValidate] = out.trim().split("\n");
  if (!kubeconform || !kubectlValidate) throw new Error(`test-tools/build.sh printed no peer paths (got ${JSON.stringify(out)})`);
  return { kubeconform, "kubectl-validate": kubectlValidate };
}

const base = (file: string) => file.slice(file.lastIndexOf("/") + 1);

/** kubeconform's verdict per file of `dir` (one document per file). */
export async function kubeconformOutcomes(bin: string, dir: string, kinds: ReadonlySet<string>): Promise<Map<string, Outcome>> {
  const schemas = mkdtempSync(join(tmpdir(), "eks-gitops-kubeconform-"));
  await writeKubeconformSchemas(schemas, kinds, { goEnums: false });
  const peer = offline(bin, ["-strict", "-verbose", "-output", "json", "-schema-location", `${schemas}/{{ .ResourceKind }}{{ .KindSuffix }}.json`, dir]);
  const run = spawnSync(peer.command, peer.args, { env: peer.env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0 && run.status !== 1) throw new Error(`kubeconform exited ${run.status}: ${run.stderr.slice(0, 2000)}`);
  const report = JSON.parse(run.stdout) as { resources: { filename: string; status: string; msg?: string }[] };
  const out = new Map<string, Outcome>();
  for (const r of report.resources) {
    const verdict = r.status === "statusValid" ? "valid" : r.status === "statusInvalid" ? "invalid" : "error";
    out.set(base(r.filename), { verdict, detail: r.msg ?? r.status });
  }
  return out;
}

/** kubectl-validate's verdict per file of `dir`. */
export async function kubectlValidateOutcomes(bin: string, dir: string): Promise<Map<string, Outcome>> {
  const work = mkdtempSync(join(tmpdir(), "eks-gitops-kubectl-validate-"));
  // ApplicationSet's 1.4 MB CRD is not mutated and only slows kubectl-validate down
  const dirs = await writeKubectlValidateSchemas(work, (p) => !p.endsWith("applicationset-crd.yaml"));
  const peer = offline(bin, ["--local-crds", dirs.crds, "--local-schemas", dirs.schemas, "--version", "1.35", "--output", "json", dir]);
  const run = spawnSync(peer.command, peer.args, { env: peer.env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0 && run.status !== 1) throw new Error(`kubectl-validate exited ${run.status}: ${run.stderr.slice(0, 2000)}`);
  const report = JSON.parse(run.stdout) as Record<string, { status?: string; message?: string; details?: unknown }[]>;
  const out = new Map<string, Outcome>();
  for (const [file, results] of Object.entries(report)) {
    const failed = results.filter((r) => r.status !== "Success");
    out.set(base(file), failed.length === 0 ? { verdict: "valid", detail: "" } : { verdict: "invalid", detail: failed.map((r) => r.message ?? r.status).join("; ") });
  }
  return out;
}

/** Agreement of a peer's verdicts with the server's, over cases identified by file name. */
export function peerAgreement(cases: readonly { file: string; kind: string; server: Outcome }[], peer: ReadonlyMap<string, Outcome>) {
  const byKind: Record<string, { total: number; agreed: number }> = {};
  let agreed = 0;
  for (const c of cases) {
    const k = byKind[c.kind] ?? { total: 0, agreed: 0 };
    byKind[c.kind] = k;
    k.total++;
    if (peer.get(c.file)?.verdict === c.server.verdict) {
      k.agreed++;
      agreed++;
    }
  }
  return { total: cases.length, agreed, rate: cases.length === 0 ? 1 : agreed / cases.length, byKind };
}
