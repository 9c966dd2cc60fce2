// Disagreement reasons: a constraint the validator's schema expresses is never excused; Go-only checks and known gaps are named.
import { describe, expect, it } from "vitest";
import { agreementByKind, type Case, compare, explain, formatAgreementByKind, type KindAgreement, kindShortfall, REASONS, type Schemas } from "./compare.ts";
import type { FieldConstraints } from "./openapi-constraints.ts";
import { serverOutcome } from "./verdicts.ts";

const service = { apiVersion: "v1", kind: "Service", spec: { type: "ClusterIP", externalTrafficPolicy: "Local", ports: [{ port: 80, protocol: "tcp" }] } };
const lookup =
  (table: Record<string, FieldConstraints>) =>
  (_apiVersion: string, _kind: string, field: string): FieldConstraints | undefined =>
    table[field] ?? { keywords: [], requiredByParent: false };
const enumProtocol = { "spec.ports[0].protocol": { keywords: ["enum"], requiredByParent: false, enum: ["SCTP", "TCP", "UDP"] } };
const enumPolicy = { "spec.externalTrafficPolicy": { keywords: ["enum"], requiredByParent: false, enum: ["Cluster", "Local"] } };
const none = lookup({});

const rejected = (reason: string, field: string) =>
  serverOutcome({ accepted: false, code: 422, reason: "Invalid", message: "x", causes: [{ reason, field, message: "m" }] });
const caseOf = (server: Case["server"], validator: Case["validator"], object: unknown = service): Case => ({
  id: "1",
  category: "bad-enum",
  apiVersion: (object as { apiVersion: string }).apiVersion,
  kind: (object as { kind: string }).kind,
  description: "d",
  server,
  validator,
  object,
});
const valid = { verdict: "valid" as const, detail: "" };

describe("explain", () => {
  it("does not excuse a bad value the validator's own schema forbids (enum)", () => {
    const schemas: Schemas = { pinned: lookup(enumProtocol), live: lookup(enumProtocol) };
    expect(explain(caseOf(rejected("FieldValueNotSupported", "spec.ports[0].protocol"), valid), schemas)).toBeUndefined();
  });

  it("names a catalog gap when only the server's own schema has the enum", () => {
    const schemas: Schemas = { pinned: none, live: lookup(enumProtocol) };
    expect(explain(caseOf(rejected("FieldValueNotSupported", "spec.ports[0].protocol"), valid), schemas)).toBe(REASONS.catalogGap);
  });

  it("calls a contextual check on an allowed enum value Go-only (Local is in the enum; ClusterIP forbids it)", () => {
    const schemas: Schemas = { pinned: lookup(enumPolicy), live: lookup(enumPolicy) };
    expect(explain(caseOf(rejected("FieldValueInvalid", "spec.externalTrafficPolicy"), valid), schemas)).toBe(REASONS.goOnly);
  });

  it("calls Required on a present zero value Go's zero-value rule", () => {
    const object = { ...service, spec: { ...service.spec, ports: [{ port: 0 }] } };
    const server = rejected("FieldValueRequired", "spec.ports[0].port");
    expect(explain(caseOf(server, valid, object), { pinned: none, live: none })).toBe(REASONS.zeroValue);
  });

  it("excuses no disagreement on a custom resource (schema and CEL are all the server checks), the int32 range included", () => {
    const nodeClass = { apiVersion: "karpenter.k8s.aws/v1", kind: "EC2NodeClass" };
    const range = serverOutcome({
      accepted: false,
      code: 422,
      reason: "Invalid",
      message: "x",
      causes: [{ reason: "FieldValueInvalid", field: "<nil>", message: 'Invalid value: "": Checked value must be of type integer with format int32 in spec.kubelet.maxPods' }],
    });
    expect(explain(caseOf(range, valid, nodeClass), { pinned: none, live: none })).toBeUndefined();
    expect(explain(caseOf(rejected("FieldValueInvalid", "spec.role"), valid, nodeClass), { pinned: none, live: none })).toBeUndefined();
  });

  it('no longer excuses an enum finding on "" of a built-in kind (the validator judges it like the server now)', () => {
    const object = { ...service, spec: { ...service.spec, sessionAffinity: "" } };
    const flagged = { verdict: "invalid" as const, detail: "", findings: [{ rule: "schema:enum", path: "/spec/sessionAffinity" }] };
    expect(explain(caseOf(valid, flagged, object), { pinned: none, live: none })).toBeUndefined();
  });
});

it("names validator findings that come only from cross-object checks", () => {
  const flagged = { verdict: "invalid" as const, detail: "", findings: [{ rule: "hpa-target-missing", path: "/spec/scaleTargetRef" }] };
  expect(explain(caseOf(valid, flagged), { pinned: none, live: none })).toBe(REASONS.crossObject);
  // A fixture: its own case when its header expects every code found, else another fixture's documents met it.
  expect(explain({ ...caseOf(valid, flagged), expectedCrossObject: ["hpa-target-missing"] }, { pinned: none, live: none })).toBe(REASONS.crossObject);
  expect(explain({ ...caseOf(valid, flagged), expectedCrossObject: [] }, { pinned: none, live: none })).toBe(REASONS.crossObjectPooled);
  const mixed = { ...flagged, findings: [...flagged.findings, { rule: "schema:type", path: "/spec/x" }] };
  expect(explain(caseOf(valid, mixed), { pinned: none, live: none })).toBeUndefined();
});

it("excuses a decode failure only where the schema cannot express it", () => {
  const decode = (message: string) => serverOutcome({ accepted: false, code: 400, reason: "BadRequest", message, causes: [] });
  const formats = lookup({
    "spec.ports.targetPort": { keywords: [], requiredByParent: false, format: "int-or-string" },
    "spec.ports.port": { keywords: [], requiredByParent: false, format: "int32" },
  });
  const schemas = { pinned: formats, live: formats };
  const prefix = 'Service in version "v1" cannot be handled as a Service: ';
  expect(explain(caseOf(decode(`${prefix}quantities must match the regular expression '^x$'`), valid), schemas)).toBe(REASONS.goConversion);
  const wide = (field: string) => `${prefix}json: cannot unmarshal number 2147483648 into Go struct field ServicePort.spec.ports.${field} of type int32`;
  expect(explain(caseOf(decode(wide("targetPort")), valid), schemas)).toBe(REASONS.goConversion);
  expect(explain(caseOf(decode(wide("port")), valid), schemas)).toBeUndefined();
  expect(explain(caseOf(decode(`${prefix}json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32`), valid), schemas)).toBeUndefined();
});

describe("compare", () => {
  it("counts agreement overall and per kind", () => {
    const result = compare(
      [caseOf(valid, valid), caseOf(rejected("FieldValueNotSupported", "spec.ports[0].protocol"), valid)],
      { pinned: lookup(enumProtocol), live: lookup(enumProtocol) },
    );
    expect(result).toMatchObject({ total: 2, agreed: 1, rate: 0.5, byKind: { Service: { total: 2, agreed: 1 } } });
    expect(result.disagreements.map((d) => d.reason)).toEqual([undefined]);
  });
});

describe("serverOutcome", () => {
  it("reads 422, 400 and server-side apply's type-error 500s as invalid, anything else as no verdict", () => {
    const no = { reason: "", causes: [] };
    expect(serverOutcome({ accepted: false, code: 400, message: "strict decoding error", ...no }).verdict).toBe("invalid");
    expect(serverOutcome({ accepted: false, code: 500, message: "failed to create typed patch object (x): .spec.a: field not declared in schema", ...no }).verdict).toBe("invalid");
    expect(serverOutcome({ accepted: false, code: 500, message: "failed to convert new object (x): cannot convert float64 to int32", ...no }).verdict).toBe("invalid");
    expect(serverOutcome({ accepted: false, code: 500, message: "etcdserver: request timed out", ...no }).verdict).toBe("error");
    expect(serverOutcome({ accepted: false, code: 404, message: "the server could not find the requested resource", ...no }).verdict).toBe("error");
    expect(serverOutcome({ thrown: "ECONNREFUSED" })).toEqual({ verdict: "error", detail: "ECONNREFUSED" });
  });
});

describe("agreementByKind", () => {
  const invalid = { verdict: "invalid" as const, detail: "x" };
  const ofKind = (kind: string, server: Case["server"], validator: Case["validator"]): Case => ({ ...caseOf(server, validator), kind });

  it("counts cases, agreements, false rejections and misses per kind, listing kinds without a case", () => {
    const rows = agreementByKind(
      [ofKind("Lease", valid, valid), ofKind("Lease", valid, invalid), ofKind("CSINode", invalid, valid), ofKind("CSINode", invalid, invalid)],
      ["CSINode", "DeviceClass", "Lease"],
    );
    expect(rows).toEqual([
      { kind: "CSINode", cases: 2, agreed: 1, falseRejections: 0, misses: 1 },
      { kind: "DeviceClass", cases: 0, agreed: 0, falseRejections: 0, misses: 0 },
      { kind: "Lease", cases: 2, agreed: 1, falseRejections: 1, misses: 0 },
    ]);
    expect(rows.map(kindShortfall)).toEqual(["50.00% < 99.5%", "no case", "1 false rejection(s)"]);
  });

  it("passes a kind at 99.5% without false rejections, and fails one just below", () => {
    const agreeing = Array.from({ length: 199 }, () => ofKind("Lease", invalid, invalid));
    expect(kindShortfall(agreementByKind([...agreeing, ofKind("Lease", invalid, valid)], [])[0] as KindAgreement)).toBeUndefined();
    const fewer = Array.from({ length: 198 }, () => ofKind("Lease", invalid, invalid));
    expect(kindShortfall(agreementByKind([...fewer, ofKind("Lease", invalid, valid)], [])[0] as KindAgreement)).toBe("99.50% < 99.5%");
  });

  it("prints one markdown row per kind and a total", () => {
    const text = formatAgreementByKind("mutations", agreementByKind([ofKind("Lease", valid, invalid)], ["Lease", "CSINode"]));
    expect(text.split("\n")).toEqual([
      "mutations: agreement per kind (2 kinds, 2 below the bar)",
      "| kind | cases | agree | false rejections | misses |",
      "|---|---|---|---|---|",
      "| CSINode | 0 | 0 (-) | 0 | 0 | no case",
      "| Lease | 1 | 0 (0.00%) | 1 | 0 | 1 false rejection(s)",
      "| total | 1 | 0 (0.00%) | 1 | 0 |",
    ]);
  });
});
