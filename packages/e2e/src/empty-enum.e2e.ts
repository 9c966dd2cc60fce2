// "" in an enum field of a built-in kind: the API server treats it as unset where the Go field is a value, and checks
// it where the field is a pointer or required. The validator's list of value fields (VALUE_ENUM_FIELDS, generated
// from the Go types) must predict the server's verdict, and `validate --from-cluster` must give the same one.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VALUE_ENUM_FIELDS, VALUE_ENUM_SOURCE } from "@eks-gitops/validate";
import { KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { stringify } from "yaml";
import { serverOutcomes } from "./differential/server-side.ts";
import { runValidator, validatorAvailable } from "./differential/validator-cli.ts";
import { type Outcome, validatorOutcome } from "./differential/verdicts.ts";
import { RawObjectApi } from "./harness/apply.ts";
import { REPO_ROOT } from "./harness/repo.ts";

type Json = Record<string, unknown>;
const meta = (name: string) => ({ name, namespace: "default" });
/** A KubernetesObject with a spec (client-node's type has none). */
type Manifest = KubernetesObject & { spec: Json };
const service = (spec: Json): Manifest => ({ apiVersion: "v1", kind: "Service", metadata: meta("s"), spec: { ports: [{ port: 80 }], ...spec } });
const deployment = (pod: Json, container: Json = {}, spec: Json = {}): Manifest => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: meta("d"),
  spec: { selector: { matchLabels: { a: "b" } }, template: { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: "c", image: "x", ...container }], ...pod } }, ...spec },
});
const claim = (spec: Json): Manifest => ({
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  metadata: meta("p"),
  spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
});

/** `required`: the field is in its parent's `required` list of the served OpenAPI (then "" is missing, not unset). */
interface Probe {
  readonly definition: string;
  readonly field: string;
  readonly required?: boolean;
  readonly object: Manifest;
}
const core = (t: string) => `io.k8s.api.core.v1.${t}`;
const PROBES: readonly Probe[] = [
  // value fields
  { definition: core("ServiceSpec"), field: "sessionAffinity", object: service({ sessionAffinity: "" }) },
  { definition: core("ServiceSpec"), field: "type", object: service({ type: "" }) },
  { definition: core("ServiceSpec"), field: "externalTrafficPolicy", object: service({ externalTrafficPolicy: "" }) },
  { definition: core("ServicePort"), field: "protocol", object: service({ ports: [{ port: 80, protocol: "" }] }) },
  { definition: "io.k8s.api.apps.v1.DeploymentStrategy", field: "type", object: deployment({}, {}, { strategy: { type: "" } }) },
  { definition: core("PodSpec"), field: "restartPolicy", object: deployment({ restartPolicy: "" }) },
  { definition: core("PodSpec"), field: "dnsPolicy", object: deployment({ dnsPolicy: "" }) },
  { definition: core("Container"), field: "imagePullPolicy", object: deployment({}, { imagePullPolicy: "" }) },
  { definition: core("Container"), field: "terminationMessagePolicy", object: deployment({}, { terminationMessagePolicy: "" }) },
  { definition: core("ContainerPort"), field: "protocol", object: deployment({}, { ports: [{ containerPort: 80, protocol: "" }] }) },
  { definition: core("Toleration"), field: "operator", object: deployment({ tolerations: [{ key: "k", operator: "", value: "v" }] }) },
  { definition: core("Toleration"), field: "effect", object: deployment({ tolerations: [{ key: "k", operator: "Exists", effect: "" }] }) },
  { definition: core("HTTPGetAction"), field: "scheme", object: deployment({}, { livenessProbe: { httpGet: { port: 80, scheme: "" } } }) },
  // pointer fields
  { definition: core("PersistentVolumeClaimSpec"), field: "volumeMode", object: claim({ volumeMode: "" }) },
  { definition: core("ServiceSpec"), field: "internalTrafficPolicy", object: service({ internalTrafficPolicy: "" }) },
  { definition: core("ServiceSpec"), field: "ipFamilyPolicy", object: service({ ipFamilyPolicy: "" }) },
  { definition: core("PodSecurityContext"), field: "fsGroupChangePolicy", object: deployment({ securityContext: { fsGroupChangePolicy: "" } }) },
  {
    definition: core("TopologySpreadConstraint"),
    field: "nodeAffinityPolicy",
    object: deployment({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey: "k", whenUnsatisfiable: "DoNotSchedule", nodeAffinityPolicy: "" }] }),
  },
  // required value fields
  { definition: core("TopologySpreadConstraint"), field: "whenUnsatisfiable", required: true, object: deployment({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey: "k", whenUnsatisfiable: "" }] }) },
  { definition: core("SeccompProfile"), field: "type", required: true, object: deployment({ securityContext: { seccompProfile: { type: "" } } }) },
];

const predicted = (p: Probe) => ((VALUE_ENUM_FIELDS[p.definition] ?? []).includes(p.field) && !p.required ? "valid" : "invalid");
let server: Outcome[] = [];

beforeAll(async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(inject("kubeconfigPath"));
  server = await serverOutcomes(RawObjectApi.fromKubeConfig(kc), PROBES.map((p) => p.object));
});

describe('"" in an enum field of a built-in kind (dry-run create)', () => {
  it("is accepted exactly where the generated list names a non-required value field", () => {
    const verdicts = PROBES.map((p, i) => `${p.definition}.${p.field}: ${server[i]?.verdict}`);
    expect(verdicts).toEqual(PROBES.map((p) => `${p.definition}.${p.field}: ${predicted(p)}`));
    // Both outcomes occur, for value and pointer fields alike.
    expect(new Set(server.map((o) => o.verdict))).toEqual(new Set(["valid", "invalid"]));
  });

  const dir = mkdtempSync(join(tmpdir(), "eks-gitops-empty-enum-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it.skipIf(!validatorAvailable())("gets the server's verdict from `validate --from-cluster` (the served schemas carry the enums)", () => {
    PROBES.forEach((p, i) => {
      writeFileSync(join(dir, `probe-${String(i).padStart(2, "0")}.yaml`), stringify(p.object));
    });
    const run = runValidator([dir], { args: ["--from-cluster"], env: { KUBECONFIG: inject("kubeconfigPath") } });
    const byFile = new Map(run.resources.map((r) => [r.file.slice(r.file.lastIndexOf("/") + 1), r]));
    const validator = PROBES.map((p, i) => `${p.definition}.${p.field}: ${validatorOutcome(byFile.get(`probe-${String(i).padStart(2, "0")}.yaml`)).verdict}`);
    expect(validator).toEqual(PROBES.map((p, i) => `${p.definition}.${p.field}: ${server[i]?.verdict}`));
  });
});

describe("the generated list of value enum fields", () => {
  it("comes from the k8s.io/api version of the kube-apiserver under test", () => {
    const goMod = readFileSync(join(REPO_ROOT, "test-tools", "kube", "apiserver", "go.mod"), "utf8");
    const pinned = /^\s*k8s\.io\/api => k8s\.io\/api (v\S+)/m.exec(goMod)?.[1];
    expect(VALUE_ENUM_SOURCE).toBe(`k8s.io/api@${pinned}`);
  });

  // Needs Go and the module in the Go module cache (there whenever test-tools/build.sh built kube-apiserver).
  const go = spawnSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" });
  const moduleDir = go.status === 0 ? join(go.stdout.trim(), VALUE_ENUM_SOURCE) : "";
  it.skipIf(!moduleDir || !existsSync(moduleDir))("is what test-tools/value-enums generates (not edited by hand)", () => {
    const run = spawnSync("go", ["run", ".", moduleDir], { cwd: join(REPO_ROOT, "test-tools", "value-enums"), encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(readFileSync(join(REPO_ROOT, "packages", "validate", "src", "schema", "value-enum-fields.ts"), "utf8"));
  }, 120_000);
});
