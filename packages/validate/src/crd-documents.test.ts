// CRDs among the validated documents are parsed once: the scan's documents of a CRD file go to the stream, and the
// types learnt from them share their schema objects with the documents validated (schemaProblems answers the
// document's and its types' schema checks from one walk). The report must be what parsing them again gives.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runValidation } from "./run.ts";
import { MIRROR, TEST_CACHE } from "./testing.ts";

const crd = (kind: string, spec: string, extra = "") => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${kind.toLowerCase()}s.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    kind: ${kind}
    plural: ${kind.toLowerCase()}s
  versions:
    - name: v1
      served: true
      storage: true${extra}
      schema:
        openAPIV3Schema:
          type: object
          properties:
            apiVersion:
              type: string
            kind:
              type: string
            metadata:
              type: object
${spec}`;

const WIDGET = crd(
  "Widget",
  `            spec:
              type: object
              required: [size]
              x-kubernetes-validations:
                - rule: self.minSize <= self.size
                  message: minSize must not exceed size
              properties:
                size:
                  type: integer
                  maximum: 10
                minSize:
                  type: integer
                  default: 1
`,
);
// status subresource: the type's schema is a copy (status reduced to its structure), not the document's object
const GADGET = crd(
  "Gadget",
  `            spec:
              type: object
              properties:
                mode:
                  type: string
                  enum: [a, b]
            status:
              type: object
              properties:
                phase:
                  type: string
                  enum: [Up]
`,
  "\n      subresources:\n        status: {}",
);
// several problems: the document gets them all (sorted), its objects the first the walk meets
const BROKEN = crd(
  "Broken",
  `            spec:
              type: object
              properties:
                a:
                  type: nonsense
                  maxLength: "5"
                b:
                  type: string
                  pattern: "(["
                c:
                  $ref: "#/x"
`,
);
const cr = (kind: string, name: string, spec: string) => `apiVersion: example.com/v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n${spec}`;

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "crd-documents-"));
  mkdirSync(join(dir, "crds"));
  // custom resources before their CRDs (file order), in the CRD's own file, and after
  writeFileSync(join(dir, "a-widgets.yaml"), [cr("Widget", "w1", "  size: 3\n"), cr("Widget", "w2", "  size: 30\n  minSize: 40\n"), cr("Gadget", "g0", "  mode: c\n")].join("---\n"));
  writeFileSync(join(dir, "crds", "widget.yaml"), WIDGET);
  writeFileSync(join(dir, "crds", "gadget.yaml"), `${GADGET}---\n${cr("Gadget", "g1", "  mode: b\n")}---\n${cr("Gadget", "g2", "  mode: z\n")}`);
  writeFileSync(join(dir, "crds", "broken.yaml"), `${BROKEN}---\n${cr("Broken", "b1", "  a: x\n")}`);
  writeFileSync(join(dir, "z-more.yaml"), [cr("Broken", "b2", "  b: y\n"), cr("Widget", "w3", "  size: 2\n  minSize: 3\n")].join("---\n"));
  return dir;
}

async function report(dir: string, maxAliasCount?: number) {
  const { report } = await runValidation({ root: dir, paths: [dir], mirror: MIRROR, cacheDir: TEST_CACHE, read: { cwd: dir, ...(maxAliasCount ? { maxAliasCount } : {}) } });
  return report;
}

describe("CRDs among the documents, parsed once", () => {
  it("reports exactly what parsing each CRD file again gives (another alias limit keeps the scan's documents out)", async () => {
    const dir = folder();
    const once = await report(dir);
    const twice = await report(dir, 99);
    expect(JSON.stringify(once)).toBe(JSON.stringify(twice));
    const byName = Object.fromEntries(once.resources.map((r) => [`${r.kind}/${r.name}`, r]));
    // the broken CRD: every problem on the document; its objects, wherever they are, the first problem of the walk
    const brokenCrd = once.resources.find((r) => r.kind === "CustomResourceDefinition" && r.file.endsWith("broken.yaml"));
    expect(brokenCrd?.findings.filter((f) => f.rule === "crd:schema").map((f) => f.path)).toEqual([
      "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/a/type",
      "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/a/maxLength",
      "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/b/pattern",
      "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/c/$ref",
    ]);
    for (const name of ["Broken/b1", "Broken/b2"]) {
      expect(byName[name]?.status).toBe("error");
      expect(byName[name]?.findings[0]?.message).toContain("is invalid: spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[c].$ref: Forbidden: $ref is not supported");
    }
    expect(byName["Widget/w1"]?.status).toBe("valid");
    expect(byName["Widget/w2"]?.findings.map((f) => f.rule)).toEqual(["cel:self.minSize <= self.size", "schema:maximum"]);
    expect(byName["Widget/w3"]?.findings.map((f) => f.message)).toEqual(["Invalid value: \"object\": minSize must not exceed size"]);
    expect(byName["Gadget/g0"]?.status).toBe("invalid");
    expect(byName["Gadget/g1"]?.status).toBe("valid");
    expect(byName["Gadget/g2"]?.status).toBe("invalid");
  });
});
