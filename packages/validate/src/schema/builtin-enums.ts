// The enums of built-in kinds (generated from the Go `+enum` types into enum-values.ts) put into their schemas.
import { ENUM_VALUES } from "./enum-values.ts";

type Json = Record<string, unknown>;

/**
 * Definitions whose enum fields the API server does not check on create: object status (the create strategies
 * of the kinds reset it or never validate these fields; it is written by controllers through /status).
 */
const isStatus = (definition: string) => /(Status|Condition)$/.test(definition);

/**
 * Fields whose Go validation allows fewer values than the Go type's enum (so the native stage reports them, with the
 * server's list, and the schema must not report them a second time): a StorageClass may not use Recycle.
 */
const CHECKED_NATIVELY = new Set(["io.k8s.api.storage.v1.StorageClass.reclaimPolicy"]);

/** The node that holds a field's string values: itself, the items of a list, the values of a map. */
function stringNode(prop: Json): Json | undefined {
  const types = Array.isArray(prop.type) ? prop.type : [prop.type];
  if (types.includes("string")) return prop;
  if (types.includes("array") && typeof prop.items === "object" && prop.items !== null) return stringNode(prop.items as Json);
  if (types.includes("object") && typeof prop.additionalProperties === "object" && prop.additionalProperties !== null) return stringNode(prop.additionalProperties as Json);
  return undefined;
}

/**
 * Adds `enum` to the converted properties of one built-in definition where the Go type declares one and the
 * published OpenAPI does not (the pinned v1.36 files carry none; the live server adds the same lists). An
 * invalid value then gets the server's `Unsupported value: "Sometimes": supported values: "Always", ...`.
 */
export function applyEnumValues(definition: string, properties: Record<string, Json> | undefined): void {
  const fields = ENUM_VALUES[definition];
  if (!fields || !properties || isStatus(definition)) return;
  for (const [field, values] of Object.entries(fields)) {
    if (CHECKED_NATIVELY.has(`${definition}.${field}`)) {
      // the server's own schema (--from-cluster) carries the Go enum: it is not what the server enforces here
      const node = properties[field] ? stringNode(properties[field] as Json) : undefined;
      if (node) delete node.enum;
      continue;
    }
    const prop = properties[field];
    const node = prop ? stringNode(prop) : undefined;
    if (!node || node.enum !== undefined) continue;
    const nullable = Array.isArray(node.type) && node.type.includes("null");
    node.enum = nullable ? [...values, null] : [...values];
  }
}
