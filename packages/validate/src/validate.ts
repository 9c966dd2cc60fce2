// ObjectValidator: one object through schema lookup, defaulting, OpenAPI validation, native checks and CEL (validate-documents.ts and stream.ts run it over many).
import { CelEvaluator } from "./cel/evaluate.ts";
import { type CompilerOptions, SchemaCompiler } from "./schema/compile.ts";
import { nativeFindings, undecodable, withoutSuperseded } from "./native/index.ts";
import { type NativeAhead, usableAhead } from "./native-ahead.ts";
import { valueAtPointer } from "./pointer.ts";
import { findingsFromAjv, isBlocking } from "./schema/errors.ts";
import { makeDeref, type SchemaNode, type TypeSchema } from "./schema/model.ts";
import type { SchemaRegistry } from "./schema/registry.ts";
import { type CelTask, walk, type WalkResult } from "./schema/walk.ts";
import { withQuoteHint } from "./yaml11.ts";
import { cloneWithoutNulls } from "./nulls.ts";
import { crdDocumentFindings, schemaUnusable, unusableFinding } from "./schema/unusable.ts";
import { apiApprovalFindings, claimedKindFindings } from "./schema/crd-claims.ts";
import { isCrd } from "./schema/sources.ts";
import type { Finding, ParsedResource, ResourceResult, ResourceStatus, Summary } from "./types.ts";

export const CEL_SKIPPED_MESSAGE = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

const identity = (n: SchemaNode) => n;

/** Which per-object stages run (`--checks`); `native` is the API server's hand-written validation of built-ins and ObjectMeta (src/native/). */
export interface ValidationStages {
  readonly schema: boolean;
  readonly cel: boolean;
  readonly native: boolean;
}
export const ALL_STAGES: ValidationStages = { schema: true, cel: true, native: true };

class SchemaUnusable extends Error {
  constructor(readonly finding: Finding) {
    super(finding.message);
  }
}

/** Validates single objects against their schemas; compiled validators and CEL programs are reused across calls. */
export class ObjectValidator {
  readonly compiler: SchemaCompiler;
  readonly cel = new CelEvaluator();
  private readonly derefs = new WeakMap<object, (n: SchemaNode) => SchemaNode>();

  /** `cacheDir`: where compiled validator code is kept between runs (see SchemaCompiler). */
  constructor(options: CompilerOptions = {}) {
    this.compiler = new SchemaCompiler(options);
  }

  private derefFor(type: TypeSchema): (n: SchemaNode) => SchemaNode {
    if (!type.components) return identity;
    let d = this.derefs.get(type.components);
    if (!d) {
      d = makeDeref(type.components);
      this.derefs.set(type.components, d);
    }
    return d;
  }

  /**
   * Findings for one object (empty = valid). `previous` enables transition rules. Without the schema stage
   * the schema still decides whether CEL can run (as the API server's hasBlockingErr), but is not reported.
   * A stage left out of `only` runs.
   */
  validate(
    object: Readonly<Record<string, unknown>>,
    type: TypeSchema,
    registry?: SchemaRegistry,
    previous?: Readonly<Record<string, unknown>>,
    only: Partial<ValidationStages> = ALL_STAGES,
    /** The native stage's findings made ahead by the read-ahead worker (native-ahead.ts), used when they apply. */
    ahead?: NativeAhead,
  ): Finding[] {
    const stages: ValidationStages = { schema: only.schema !== false, cel: only.cel !== false, native: only.native !== false };
    if (type.flavour === "crd" && registry) {
      const builtin = registry.anyBuiltin();
      if (builtin) this.compiler.useObjectMetaFrom(builtin);
    }
    const deref = this.derefFor(type);
    const structural = type.flavour === "crd";
    const opts = { defaults: structural, cel: structural && stages.cel, deref };
    let old: unknown;
    if (previous && structural) old = walk(previous, type.root, "", undefined, { defaults: true, cel: false, deref }, { findings: [], tasks: [] });
    const result: WalkResult = { findings: [], tasks: [] as CelTask[] };
    // the API server's CEL cost estimates, once per schema: rules over the limits are reported, not run
    if (structural) this.cel.checkCosts(type.root, type.schemaPointer ?? "");
    let value: Record<string, unknown>;
    if (structural) value = walk(object, type.root, "", old, opts, result) as Record<string, unknown>;
    // a built-in object without nulls is validated as it is: the read-ahead worker may already know it has none
    else value = (type.flavour === "builtin" && ahead?.nullFree !== true ? cloneWithoutNulls(object) : object) as Record<string, unknown>;
    const validator = this.compiler.validator(type);
    const findings: Finding[] = stages.schema && result.findings.length > 0 ? [...result.findings] : [];
    let blocked = false;
    if ((stages.schema || result.tasks.length > 0) && !validator(value)) {
      const errors = validator.errors ?? [];
      // ajv runs without `verbose` (it would embed whole schemas in the generated code): the offending value is looked up here
      for (const e of errors) if (!("data" in e)) e.data = valueAtPointer(value, e.instancePath);
      blocked = errors.some(isBlocking);
      if (stages.schema) findings.push(...findingsFromAjv(errors).map(withQuoteHint));
    }
    if (stages.native) {
      const native = usableAhead(ahead, type, undecodable(findings)) ?? nativeFindings(value, type, findings);
      // most objects have no native finding: then every schema finding stays, in place
      if (native.length > 0) findings.splice(0, findings.length, ...withoutSuperseded(findings, native), ...native);
    }
    if (result.tasks.length > 0) {
      if (blocked) findings.push({ severity: "error", path: "", message: CEL_SKIPPED_MESSAGE, rule: "cel:skipped" });
      else findings.push(...this.cel.evaluate(result.tasks, result.negativeZero !== true));
    }
    return findings;
  }
}

/**
 * One object whose schema was found through the per-object stages: an unusable schema, a document nested beyond
 * the stack or a schema that does not compile is one error for this object, not the end of the run.
 */
export function validateWithSchema(
  validator: ObjectValidator,
  object: Readonly<Record<string, unknown>>,
  type: TypeSchema,
  registry: SchemaRegistry,
  previous: Readonly<Record<string, unknown>> | undefined,
  stages: Partial<ValidationStages>,
  ahead?: NativeAhead,
): { findings: Finding[]; status: ResourceStatus } {
  const unusable = schemaUnusable(type, validator.compiler);
  try {
    if (unusable) throw new SchemaUnusable(unusable);
    const findings = validator.validate(object, type, registry, previous, stages, ahead);
    return { findings, status: statusOf(findings) };
  } catch (err) {
    // one pathological document (e.g. nested beyond the stack) or schema must not stop the others
    let findings: Finding[];
    if (err instanceof SchemaUnusable) findings = [err.finding];
    else if (err instanceof RangeError) findings = [{ severity: "error", path: "", message: `cannot validate: ${err.message} (document nested too deeply?)`, rule: "parse:too-deep" }];
    else if (type.flavour !== "builtin") findings = [unusableFinding(type, `compiling it failed: ${(err as Error)?.message?.split("\n")[0] ?? String(err)}`)];
    else throw err;
    return { findings, status: "error" };
  }
}

/**
 * A CRD among the documents whose schema or group the API server would refuse gets its problems, and a warning for
 * each kind it claims that is built in or already defined (anything else is returned as is).
 */
export function withCrdProblems(r: ParsedResource, validator: ObjectValidator, outcome: { findings: Finding[]; status: ResourceStatus }, registry?: SchemaRegistry): { findings: Finding[]; status: ResourceStatus } {
  if (!isCrd(r.object)) return outcome;
  const crdProblems = [...apiApprovalFindings(r.object), ...crdDocumentFindings(r.object, validator.cel), ...(registry ? claimedKindFindings(r, registry) : [])];
  if (crdProblems.length === 0) return outcome;
  const findings = [...outcome.findings, ...crdProblems];
  return { findings, status: outcome.status === "valid" ? statusOf(findings) : outcome.status };
}

export function missingSchema(r: Pick<ParsedResource, "apiVersion" | "kind">, registry: SchemaRegistry): Finding {
  const layers = registry.layers.map((l) => l.name).join("; ") || "none";
  return {
    severity: "error",
    path: "",
    message: `no schema for ${r.apiVersion} ${r.kind} (searched: ${layers}); supply it with --crd FILE|DIR (its CRD or a JSON Schema), add the CRD to the validated files, use --from-cluster, or fix apiVersion/kind`,
    rule: "schema:missing",
  };
}

export const statusOf = (findings: readonly Finding[]): ResourceStatus => (findings.some((f) => f.severity === "error") ? "invalid" : "valid");

export function summarize(resources: readonly ResourceResult[]): Summary {
  const count = (s: ResourceStatus) => resources.filter((r) => r.status === s).length;
  return { resources: resources.length, valid: count("valid"), invalid: count("invalid"), error: count("error"), skipped: count("skipped") };
}
