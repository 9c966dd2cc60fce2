// `pnpm bench`: prints how fast the IAM documents build and lint (cold = first call, loading iam-data; warm = afterwards).
import { checkCluster, type ClusterConfig } from "@eks-gitops/config";
import awsCn from "../../../clusters/aws-cn/cluster.ts";
import eksworkshop from "../../../clusters/eksworkshop/cluster.ts";
import { buildIamDocuments, iamFiles } from "../src/bundle.ts";
import { lintPolicyDocument } from "../src/lint/lint.ts";
import type { LintContext } from "../src/lint/types.ts";

function documents(config: ClusterConfig): { doc: unknown; context: LintContext }[] {
  const bundle = buildIamDocuments(config);
  return [
    ...bundle.roles.flatMap((r) => [
      { doc: r.trustPolicy, context: { kind: "trust" } as LintContext },
      ...r.inlinePolicies.map((p) => ({ doc: p.document, context: { kind: "identity" } as LintContext })),
    ]),
    ...(bundle.queue ? [{ doc: bundle.queue.policy, context: { kind: "resource" } as LintContext }] : []),
  ];
}

function time(runs: number, fn: () => void): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1e6 / runs;
}

const configs = [checkCluster(eksworkshop, "clusters/eksworkshop/cluster.ts"), checkCluster(awsCn, "clusters/aws-cn/cluster.ts")];
const docs = configs.flatMap(documents);
const cold = time(1, () => {
  for (const d of docs) lintPolicyDocument(d.doc, d.context);
});
const warm = time(20, () => {
  for (const d of docs) lintPolicyDocument(d.doc, d.context);
});
const build = time(200, () => {
  for (const c of configs) iamFiles(buildIamDocuments(c));
});
console.log(`policies: build + lay out IAM documents of ${configs.length} overlays: ${build.toFixed(3)} ms`);
console.log(`policies: lint ${docs.length} documents cold (loads iam-data): ${cold.toFixed(1)} ms`);
console.log(`policies: lint ${docs.length} documents warm: ${warm.toFixed(2)} ms (${((docs.length / warm) * 1000).toFixed(0)} documents/s)`);
console.log(`policies: peak RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
