// Event (core v1 and events.k8s.io/v1) as the API server validates it on create. Both are stored as the core type;
// events.k8s.io/v1 names its fields differently (regarding, note, deprecated*) and gets the strict checks.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/events.go (ValidateEventCreate, legacyValidateEvent,
// validateV1EventSeries) and pkg/apis/events/v1/conversion.go (the field mapping).
import { byteLength, isDns1123Subdomain, isQualifiedName } from "./names.ts";
import { FieldPath } from "./path.ts";
import type { NativeContext, NativeGroup } from "./registry.ts";
import type { Reporter } from "./report.ts";
import { type Obj, asNum, asObj, asStr } from "./values.ts";

const C = "core/event";
const LIMIT_128 = 128;
const NOTE_LIMIT = 1024;
const ZERO_TIME = /^0001-01-01T00:00:00(\.0+)?Z$/;

/** The core Event's fields as validation reads them, whichever API the object came through. */
interface CoreEvent {
  readonly namespace: string;
  readonly involvedNamespace: string;
  readonly eventTime: boolean;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly action: string;
  readonly reason: string;
  readonly message: string;
  readonly type: string;
  readonly firstTimestamp: boolean;
  readonly lastTimestamp: boolean;
  readonly count: number;
  readonly source: Obj;
  readonly series: Obj | undefined;
}

const str = (v: unknown): string => asStr(v) ?? "";
const isSet = (v: unknown): boolean => typeof v === "string" && v !== "" && !ZERO_TIME.test(v);

/** The request's namespace: the object's, else the one kubectl sends by default. */
const namespaceOf = (e: Obj): string => asStr(asObj(e.metadata)?.namespace) ?? "default";

function fromCore(e: Obj): CoreEvent {
  return {
    namespace: namespaceOf(e),
    involvedNamespace: str(asObj(e.involvedObject)?.namespace),
    eventTime: isSet(e.eventTime),
    reportingController: str(e.reportingComponent),
    reportingInstance: str(e.reportingInstance),
    action: str(e.action),
    reason: str(e.reason),
    message: str(e.message),
    type: str(e.type),
    firstTimestamp: isSet(e.firstTimestamp),
    lastTimestamp: isSet(e.lastTimestamp),
    count: asNum(e.count) ?? 0,
    source: asObj(e.source) ?? {},
    series: asObj(e.series),
  };
}

function fromEventsV1(e: Obj): CoreEvent {
  return {
    namespace: namespaceOf(e),
    involvedNamespace: str(asObj(e.regarding)?.namespace),
    eventTime: isSet(e.eventTime),
    reportingController: str(e.reportingController),
    reportingInstance: str(e.reportingInstance),
    action: str(e.action),
    reason: str(e.reason),
    message: str(e.note),
    type: str(e.type),
    firstTimestamp: isSet(e.deprecatedFirstTimestamp),
    lastTimestamp: isSet(e.deprecatedLastTimestamp),
    count: asNum(e.deprecatedCount) ?? 0,
    source: asObj(e.deprecatedSource) ?? {},
    series: asObj(e.series),
  };
}

/** legacyValidateEvent: namespaces agree; an event with eventTime names its reporter, action and reason. */
function legacyValidateEvent(e: CoreEvent, controllerField: string, r: Reporter): void {
  const involved = FieldPath.of("involvedObject", "namespace");
  // through events.k8s.io/v1 the server still names the core fields; the pointers name the fields as written
  const v1 = controllerField === "reportingController";
  const involvedPointer = v1 ? "/regarding/namespace" : undefined;
  if (!e.eventTime) {
    const mismatch = e.involvedNamespace === "" ? e.namespace !== "" && e.namespace !== "default" : e.namespace !== e.involvedNamespace;
    if (mismatch) r.invalid(involved, e.involvedNamespace, "does not match event.namespace", C, involvedPointer);
  } else {
    if (e.involvedNamespace === "" && e.namespace !== "default" && e.namespace !== "kube-system") {
      r.invalid(involved, e.involvedNamespace, "does not match event.namespace", C, involvedPointer);
    }
    const controller = FieldPath.of(controllerField);
    if (e.reportingController === "") r.required(controller, "", C);
    r.invalidEach(controller, e.reportingController, isQualifiedName(e.reportingController), C);
    const limited: [string, string, number, boolean][] = [
      ["reportingInstance", e.reportingInstance, LIMIT_128, true],
      ["action", e.action, LIMIT_128, true],
      ["reason", e.reason, LIMIT_128, true],
      ["message", e.message, NOTE_LIMIT, false],
    ];
    for (const [field, value, limit, required] of limited) {
      if (required && value === "") r.required(FieldPath.of(field), "", C);
      if (byteLength(value) > limit) r.invalid(FieldPath.of(field), "", `can have at most ${limit} characters`, C, field === "message" && v1 ? "/note" : undefined);
    }
  }
  r.invalidEach(FieldPath.of("namespace"), e.namespace, isDns1123Subdomain(e.namespace), C, "/metadata/namespace");
}

/** ValidateEventCreate through events.k8s.io/v1: the legacy checks, then the strict ones (ObjectMeta: objectmeta.ts). */
function validateEventsV1Event(e: CoreEvent, r: Reporter): void {
  legacyValidateEvent(e, "reportingController", r);
  if (e.series) {
    if ((asNum(e.series.count) ?? 0) < 2) r.invalid(FieldPath.of("series.count"), "", "should be at least 2", C, "/series/count");
    if (!isSet(e.series.lastObservedTime)) r.required(FieldPath.of("series.lastObservedTime"), "", C, "/series/lastObservedTime");
  }
  if (!e.eventTime) r.required(FieldPath.of("eventTime"), "", C);
  if (e.type !== "Normal" && e.type !== "Warning") r.invalid(FieldPath.of("type"), "", `has invalid value: ${e.type}`, C);
  if (e.firstTimestamp) r.invalid(FieldPath.of("firstTimestamp"), "", "needs to be unset", C, "/deprecatedFirstTimestamp");
  if (e.lastTimestamp) r.invalid(FieldPath.of("lastTimestamp"), "", "needs to be unset", C, "/deprecatedLastTimestamp");
  if (e.count !== 0) r.invalid(FieldPath.of("count"), "", "needs to be unset", C, "/deprecatedCount");
  if (str(e.source.component) !== "" || str(e.source.host) !== "") r.invalid(FieldPath.of("source"), "", "needs to be unset", C, "/deprecatedSource");
}

export const CORE_EVENT: NativeGroup = {
  group: "",
  kinds: { Event: (e, r) => legacyValidateEvent(fromCore(e), "reportingComponent", r) },
};

export const EVENTS: NativeGroup = {
  group: "events.k8s.io",
  kinds: { Event: (e: Obj, r: Reporter, _ctx: NativeContext) => validateEventsV1Event(fromEventsV1(e), r) },
};
