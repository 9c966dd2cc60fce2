// The native checks the read-ahead worker makes ahead (native-ahead.ts) are those the main thread would make, and
// are only taken for the very schema the worker used.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { factExtra, packExtra } from "./cross-object/compact.ts";
import { nativeFindings, undecodable } from "./native/index.ts";
import { nativeAhead, PackedBuiltins, usableAhead } from "./native-ahead.ts";
import { cloneWithoutNulls } from "./nulls.ts";
import { loadDocuments } from "./reader.ts";
import { catalogLayer } from "./schema/registry.ts";
import { MIRROR, TEST_CACHE } from "./testing.ts";
import type { ParsedResource } from "./types.ts";
import { ObjectValidator } from "./validate.ts";

const deployment = (containers: unknown[]): ParsedResource => ({
  file: "d.yaml",
  index: 0,
  apiVersion: "apps/v1",
  kind: "Deployment",
  name: "web",
  namespace: "",
  object: {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", labels: { app: "web" } },
    spec: { selector: { matchLabels: { app: "other" } }, template: { metadata: { labels: { app: "web" } }, spec: { containers } } },
  },
});

describe("native checks made ahead", () => {
  it("are the main thread's findings, for the schema of the same pinned document", async () => {
    // the catalog layer writes the packs the worker reads
    const layer = await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE }, [{ apiVersion: "apps/v1", kind: "Deployment" }]);
    const type = layer.types.get("apps/v1/Deployment");
    expect(type?.flavour).toBe("builtin");
    const builtins = new PackedBuiltins(TEST_CACHE);
    expect(builtins.type({}, "apps/v1/Deployment")?.documentId).toBe(type?.documentId);
    const r = deployment([{ name: "web", image: "nginx", ports: [{ containerPort: 70000 }], imagePullPolicy: "Sometimes", resources: { requests: { memory: null } } }]);
    const ahead = nativeAhead(r, builtins, {});
    const direct = nativeFindings(cloneWithoutNulls(r.object) as Record<string, unknown>, type as NonNullable<typeof type>, []);
    expect(direct.length).toBeGreaterThan(2);
    expect(ahead?.findings).toEqual(direct);
    expect(usableAhead(ahead, type as NonNullable<typeof type>, false)).toEqual(direct);
  });

  it("are not taken for another schema of the kind (a --crd, the cluster's, another version) nor for other kinds", async () => {
    const layer = await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE }, [{ apiVersion: "apps/v1", kind: "Deployment" }]);
    const type = layer.types.get("apps/v1/Deployment") as NonNullable<ReturnType<typeof layer.types.get>>;
    const builtins = new PackedBuiltins(TEST_CACHE);
    const ahead = nativeAhead(deployment([{ name: "web", image: "nginx" }]), builtins, {});
    expect(ahead).toBeDefined();
    expect(usableAhead(ahead, { ...type, documentId: "crd:deployment.json" }, false)).toBeUndefined();
    expect(usableAhead(ahead, { ...type, gvk: { ...type.gvk, version: "v1beta2" } }, false)).toBeUndefined();
    expect(usableAhead(ahead, { ...type, flavour: "jsonschema" }, true)).toBeUndefined();
    expect(nativeAhead({ ...deployment([]), apiVersion: "example.com/v1", kind: "Widget" }, builtins, {})).toBeUndefined();
  });

  it("say whether the object holds a null, and the main thread then validates it as it would have", async () => {
    const layer = await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE }, [{ apiVersion: "apps/v1", kind: "Deployment" }]);
    const type = layer.types.get("apps/v1/Deployment") as NonNullable<ReturnType<typeof layer.types.get>>;
    const builtins = new PackedBuiltins(TEST_CACHE);
    // a null anywhere (a nested one too) is seen; without one the object is said to be free of them
    const withNull = deployment([{ name: "web", image: "nginx", imagePullPolicy: "Sometimes", resources: { requests: { memory: null } } }]);
    const without = deployment([{ name: "web", image: "nginx", imagePullPolicy: "Sometimes", resources: { requests: { memory: "1x" } } }]);
    expect(nativeAhead(withNull, builtins, {})?.nullFree).toBe(false);
    expect(nativeAhead(without, builtins, {})?.nullFree).toBe(true);
    const validator = new ObjectValidator();
    for (const r of [withNull, without]) {
      const ahead = nativeAhead(r, builtins, {});
      const alone = validator.validate(r.object, type);
      expect(alone.length).toBeGreaterThan(1);
      expect(validator.validate(r.object, type, undefined, undefined, undefined, ahead)).toEqual(alone);
    }
  });

  it("answer for objects the schema stage finds undecodable too, as the main thread would (every fixture and hostile file)", async () => {
    const docs = loadDocuments([join(import.meta.dirname, "../fixtures"), join(import.meta.dirname, "hostile")], { cwd: import.meta.dirname });
    const objects = [
      ...docs.resources,
      // undecodable for the schema stage (an unknown field, a string for an integer) and for the decode walk (a quantity)
      { ...deployment([{ name: "web", image: "nginx" }]), object: { ...deployment([]).object, spec: { ...(deployment([]).object.spec as object), bogus: 1 } } },
      { ...deployment([{ name: "web", image: "nginx" }]), object: { ...deployment([]).object, spec: { ...(deployment([]).object.spec as object), replicas: "three" } } },
      deployment([{ name: "web", image: "nginx", resources: { requests: { memory: "1x" } }, ports: [{ containerPort: "http" }] }]),
    ];
    const kinds = [...new Map(objects.map((r) => [`${r.apiVersion}/${r.kind}`, { apiVersion: r.apiVersion, kind: r.kind }])).values()];
    const layer = await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE }, kinds);
    const builtins = new PackedBuiltins(TEST_CACHE);
    const validator = new ObjectValidator();
    const seen = { undecodable: 0, decodes: 0 };
    for (const r of objects) {
      const ahead = nativeAhead(r, builtins, {});
      const type = layer.types.get(`${r.apiVersion}/${r.kind}`);
      if (!ahead || !type) continue;
      const schema = validator.validate(r.object, type, undefined, undefined, { native: false, cel: false });
      if (!undecodable(schema)) continue;
      // what the main thread takes from the worker is what it would have made itself
      expect(usableAhead(ahead, type, true), `${r.file} ${r.kind}`).toEqual(nativeFindings(cloneWithoutNulls(r.object) as Record<string, unknown>, type, schema));
      expect(validator.validate(r.object, type, undefined, undefined, undefined, ahead), `${r.file} ${r.kind}`).toEqual(validator.validate(r.object, type));
      seen[ahead.undecodable ? "undecodable" : "decodes"]++;
    }
    // both answers met: decode findings of the worker's, and none (the schema stage alone found the object undecodable)
    expect(seen.undecodable).toBeGreaterThan(0);
    expect(seen.decodes).toBeGreaterThan(0);
  });

  it("are not made without the packs (a cache the catalog has not filled)", () => {
    expect(new PackedBuiltins("/nonexistent-cache").type({}, "apps/v1/Deployment")).toBeUndefined();
  });

  it("make each built-in object's cross-object fact as the main thread packs it, on every fixture and hostile values", async () => {
    const docs = loadDocuments([join(import.meta.dirname, "../fixtures"), join(import.meta.dirname, "../corpus/real-world")], { cwd: import.meta.dirname });
    const objects = [
      ...docs.resources,
      // values JSON cannot carry exactly: the fact is left to the main thread
      { ...deployment([{ name: "web", image: "nginx" }]), object: { ...deployment([]).object, spec: { replicas: -0 } } },
      { ...deployment([]), name: "other", object: { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "other", labels: { a: "b" } }, spec: { replicas: 3 } } },
    ];
    const kinds = [...new Map(objects.map((r) => [`${r.apiVersion}/${r.kind}`, { apiVersion: r.apiVersion, kind: r.kind }])).values()];
    await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE }, kinds);
    const builtins = new PackedBuiltins(TEST_CACHE);
    let made = 0;
    let none = 0;
    let left = 0;
    for (const r of objects) {
      const ahead = nativeAhead(r, builtins, {}, true);
      if (!ahead) continue;
      const extra = factExtra(r);
      const packed = extra === undefined ? false : packExtra(extra);
      if (typeof packed === "object") {
        expect(ahead.fact, `${r.file} ${r.kind}`).toBeUndefined();
        left++;
      } else {
        expect(ahead.fact, `${r.file} ${r.kind}`).toBe(packed);
        if (packed === false) none++;
        else made++;
      }
      // not asked: not made
      expect(nativeAhead(r, builtins, {})?.fact).toBeUndefined();
    }
    expect(made).toBeGreaterThan(50);
    expect(none).toBeGreaterThan(50);
    expect(left).toBeGreaterThanOrEqual(1);
  });
});
