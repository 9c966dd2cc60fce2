// Asks a fresh kube-apiserver 1.36 what it says about some manifests (dry-run create, as the validator's semantics):
// `tsx src/probe.ts FILE|DIR...` prints one block per document with the HTTP code, message and causes.
// For writing native-validation tests with the server's exact wording; wrap it in `flock /work/wt/heavy.lock`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import { parseAllDocuments } from "yaml";
import { createVerdict, ensureNamespaces, RawObjectApi } from "./harness/apply.ts";
import { startTestCluster } from "./harness/test-cluster.ts";

function files(paths: readonly string[]): string[] {
  return paths.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p)
          .sort()
          .filter((f) => /\.ya?ml$/.test(f))
          .map((f) => join(p, f))
      : [p],
  );
}

const docs = files(process.argv.slice(2)).flatMap((file) =>
  parseAllDocuments(readFileSync(file, "utf8"))
    .map((d, i) => ({ file, index: i, object: d.toJS() as KubernetesObject }))
    .filter((d) => d.object),
);
const cluster = await startTestCluster();
try {
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  const api = RawObjectApi.fromKubeConfig(kc);
  await ensureNamespaces(api, ["default", ...docs.map((d) => d.object.metadata?.namespace ?? "").filter(Boolean)]);
  for (const d of docs) {
    const obj = { ...d.object, metadata: { namespace: "default", ...d.object.metadata } };
    const v = await createVerdict(api, obj, { dryRun: true });
    process.stdout.write(`== ${d.file}#${d.index} ${d.object.kind}/${d.object.metadata?.name ?? ""}\n`);
    if (v.accepted) process.stdout.write("ACCEPTED\n");
    else {
      process.stdout.write(`${v.code} ${v.reason}: ${v.message}\n`);
      for (const c of v.causes) process.stdout.write(`  cause ${c.reason} ${c.field}: ${c.message}\n`);
    }
  }
} finally {
  await cluster.stop();
}
