// One ajv instance with Kubernetes formats and RE2 patterns; compiled validators cached per schema.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import af from "ajv-formats";
import { RE2JS } from "re2js";
import { convertComponents, convertCrdRoot, OBJECT_META, type ConvertContext } from "./convert.ts";
import type { TypeSchema } from "./model.ts";

const addFormats = af.default;

// OpenAPI `pattern` is matched with Go's RE2 by the API server, not with JavaScript RegExp.
// Results are memoised per pattern (bounded): the same values (label keys, names) recur across objects.
const re2Engine = Object.assign(
  (pattern: string) => {
    const re = RE2JS.compile(pattern);
    const memo = new Map<string, boolean>();
    return {
      // ajv keys its compiled-pattern cache by toString()
      toString: () => `re2:${pattern}`,
      test(s: string): boolean {
        let hit = memo.get(s);
        if (hit === undefined) {
          hit = re.test(s);
          if (memo.size >= 10_000) memo.clear();
          memo.set(s, hit);
        }
        return hit;
      },
    };
  },
  { code: "re2" },
);

// Formats the API server's format checker knows beyond ajv-formats; unknown formats pass, as there.
const K8S_FORMATS: Record<string, RegExp | true> = {
  duration: /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*(ns|us|µs|ms|s|m|h|d|w|[a-z]+)(\s*(\d+(\.\d*)?|\.\d+)\s*(ns|us|µs|ms|s|m|h|d|w|[a-z]+))*\s*$/i,
  cidr: /^((\d{1,3}\.){3}\d{1,3}\/\d{1,2}|[0-9a-f:.]+\/\d{1,3})$/i,
  mac: /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i,
  bsonobjectid: /^[0-9a-f]{24}$/i,
  hexcolor: /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i,
};

export class SchemaCompiler {
  private readonly ajv: Ajv;
  private readonly documents = new Set<string>();
  private readonly compiled = new WeakMap<TypeSchema, ValidateFunction>();
  /** `documentId#/$defs/ObjectMeta` of the first builtin document that defines it. */
  private objectMetaRef: string | undefined;

  constructor() {
    this.ajv = new Ajv({ allErrors: true, strict: false, verbose: true, validateFormats: true, inlineRefs: false, code: { regExp: re2Engine, optimize: false } });
    addFormats(this.ajv, ["date-time", "date", "byte", "uuid", "ipv4", "ipv6", "email", "hostname", "int32", "int64", "float", "double"]);
    for (const [name, re] of Object.entries(K8S_FORMATS)) this.ajv.addFormat(name, re);
    for (const name of ["uri", "password", "int-or-string", "quantity", "uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard", "ssn", "rgbcolor", "url"]) {
      this.ajv.addFormat(name, true);
    }
  }

  /** Registers a builtin OpenAPI document once (its components become `$defs` of one schema resource). */
  private addDocument(type: TypeSchema): void {
    const id = type.documentId as string;
    if (this.documents.has(id) || !type.components) return;
    this.ajv.addSchema(convertComponents(type.components, id));
    this.documents.add(id);
    if (!this.objectMetaRef && type.components[OBJECT_META]) this.objectMetaRef = `${id}#/$defs/${OBJECT_META}`;
  }

  /** Makes ObjectMeta of a builtin document available to CRD `metadata` (call with any builtin type). */
  useObjectMetaFrom(type: TypeSchema): void {
    if (type.flavour === "builtin") this.addDocument(type);
  }

  validator(type: TypeSchema): ValidateFunction {
    const hit = this.compiled.get(type);
    if (hit) return hit;
    let fn: ValidateFunction;
    if (type.flavour === "builtin") {
      this.addDocument(type);
      const ref = (type.root.$ref as string).replace("#/components/schemas/", "#/$defs/");
      fn = this.ajv.compile({ $ref: `${type.documentId}${ref}` });
    } else {
      const ctx: ConvertContext = { flavour: type.flavour, objectMetaRef: this.objectMetaRef };
      const { $schema: _ignored, $id: _id, ...root } = type.root as Record<string, unknown>;
      fn = this.ajv.compile(type.flavour === "crd" ? convertCrdRoot(root, ctx) : root);
    }
    this.compiled.set(type, fn);
    return fn;
  }
}

export type { ErrorObject };
