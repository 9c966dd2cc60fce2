// The API server's string-format checks (names, label keys and values, ports, env vars, config keys), each
// returning Go's list of messages (empty = valid), worded as the server words them.
// After k8s.io/apimachinery@v0.36.5/pkg/util/validation/validation.go and pkg/api/validate/content/{dns,kube}.go;
// hand-written because these rules live in Go code that no OpenAPI document carries.

const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
const LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const ENV_VAR_NAME_FMT = "[-._a-zA-Z][-._a-zA-Z0-9]*";
const CONFIG_KEY_FMT = "[-._a-zA-Z0-9]+";
const C_IDENTIFIER_FMT = "[A-Za-z_][A-Za-z0-9_]*";
const PERCENT_FMT = "[0-9]+%";
const HTTP_HEADER_NAME_FMT = "[-A-Za-z0-9]+";

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_KEY = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const C_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PERCENT = /^[0-9]+%$/;
const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/;

/** Go measures strings in bytes (UTF-8). */
export const byteLength = (s: string): number => {
  // ASCII fast path
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return Buffer.byteLength(s, "utf8");
  return s.length;
};

/** util/validation's MaxLenError (characters). */
export const maxLenError = (n: number): string => `must be no more than ${n} characters`;
/** validate/content's MaxLenError (bytes), used by label keys and values. */
const maxLenBytesError = (n: number): string => `must be no more than ${n} bytes`;

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  // Go appends "', " after each example and " or " between them: hence the double space the server prints
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${fmt}')`;
}

export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

const dns1123LabelValid = (v: string): boolean => v.length <= 63 && DNS1123_LABEL.test(v);
export const isDns1123Label = memo(dns1123Label, dns1123LabelValid);
function dns1123Label(v: string): string[] {
  const errs: string[] = [];
  if (byteLength(v) > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL.test(v)) errs.push(DNS1123_SUBDOMAIN.test(v) ? "must not contain dots" : regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"));
  return errs;
}

function subdomain(v: string, lenError: (n: number) => string): string[] {
  const errs: string[] = [];
  if (byteLength(v) > 253) errs.push(lenError(253));
  if (!DNS1123_SUBDOMAIN.test(v)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
  return errs;
}

const dns1123Subdomain = (v: string): string[] => subdomain(v, maxLenError);
const dns1123SubdomainValid = (v: string): boolean => v.length <= 253 && DNS1123_SUBDOMAIN.test(v);
export const isDns1123Subdomain = memo(dns1123Subdomain, dns1123SubdomainValid);

export function isDns1035Label(v: string): string[] {
  const errs: string[] = [];
  if (byteLength(v) > 63) errs.push(maxLenError(63));
  if (!DNS1035_LABEL.test(v)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"));
  return errs;
}

// Label keys, values and names repeat across objects: results are memoised per function (bounded). Most values are
// valid, and many are met once (names, label values): `valid` says so from one regular expression test, before any
// look-up. It must only answer true for a value `fn` finds nothing wrong with (a property test checks each).
const NONE: string[] = [];
function memo(fn: (v: string) => string[], valid: (v: string) => boolean): (v: string) => string[] {
  const cache = new Map<string, string[]>();
  return (v: string) => {
    if (valid(v)) return NONE;
    let r = cache.get(v);
    if (r === undefined) {
      r = fn(v);
      if (r.length === 0) r = NONE;
      if (cache.size >= 4096) cache.clear();
      cache.set(v, r);
    }
    // callers may not mutate the result; a copy keeps it safe when they do
    return r.length === 0 ? NONE : [...r];
  };
}

/** A valid qualified name, in one test: an optional DNS-1123 subdomain and '/', then a label key's name part. */
const QUALIFIED_NAME = new RegExp(`^(?:${DNS1123_SUBDOMAIN_FMT}/)?${LABEL_KEY_FMT}$`);
const qualifiedNameValid = (v: string): boolean => {
  const slash = v.indexOf("/");
  return (slash < 0 ? v.length <= 63 : slash <= 253 && v.length - slash - 1 <= 63) && QUALIFIED_NAME.test(v);
};
/** IsQualifiedName / IsLabelKey: `[prefix/]name`. */
export const isQualifiedName = memo(qualifiedName, qualifiedNameValid);
function qualifiedName(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split("/");
  let name: string;
  if (parts.length === 1) name = v;
  else if (parts.length === 2) {
    const prefix = parts[0] as string;
    name = parts[1] as string;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else for (const m of subdomain(prefix, maxLenBytesError)) errs.push(`prefix part ${m}`);
  } else {
    return [
      `a valid label key ${regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_KEY_FMT, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenBytesError(63)}`);
  if (!LABEL_KEY.test(name)) errs.push(`name part ${regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_KEY_FMT, "MyName", "my.name", "123-abc")}`);
  return errs;
}

const labelValueValid = (v: string): boolean => v.length <= 63 && LABEL_VALUE.test(v);
export const isLabelValue = memo(labelValue, labelValueValid);
function labelValue(v: string): string[] {
  const errs: string[] = [];
  if (byteLength(v) > 63) errs.push(maxLenBytesError(63));
  if (!LABEL_VALUE.test(v)) {
    errs.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
  }
  return errs;
}

export function isValidPortName(v: string): string[] {
  const errs: string[] = [];
  if (byteLength(v) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(v)) errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(v)) errs.push("must contain at least one letter (a-z)");
  if (v.includes("--")) errs.push("must not contain consecutive hyphens");
  if (v.length > 0 && (v.startsWith("-") || v.endsWith("-"))) errs.push("must not begin or end with a hyphen");
  return errs;
}

export const isValidPortNum = (n: number): string[] => (n >= 1 && n <= 65535 ? [] : [inclusiveRangeError(1, 65535)]);
export const isInRange = (n: number, lo: number, hi: number): string[] => (n >= lo && n <= hi ? [] : [inclusiveRangeError(lo, hi)]);

function chDirPrefix(v: string): string[] {
  if (v === ".") return ["must not be '.'"];
  if (v === "..") return ["must not be '..'"];
  if (v.startsWith("..")) return ["must not start with '..'"];
  return [];
}

/** The strict env var name rule (1.36 uses it only where the relaxed rule is off, e.g. some volume sources). */
export function isEnvVarName(v: string): string[] {
  const errs: string[] = [];
  if (!ENV_VAR_NAME.test(v)) errs.push(regexError("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit", ENV_VAR_NAME_FMT, "my.env-name", "MY_ENV.NAME", "MyEnvName1"));
  return [...errs, ...chDirPrefix(v)];
}

/** RelaxedEnvironmentVariableValidation (GA and locked on in 1.34+): printable ASCII other than '='. */
export function isRelaxedEnvVarName(v: string): string[] {
  const errs: string[] = [];
  if (v.length === 0) errs.push("environment variable name must be non-empty");
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c > 0x7e || c < 0x20 || c === 0x3d) {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

export function isConfigMapKey(v: string): string[] {
  const errs: string[] = [];
  if (byteLength(v) > 253) errs.push(maxLenError(253));
  if (!CONFIG_KEY.test(v)) errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_KEY_FMT, "key.name", "KEY_NAME", "key-name"));
  return [...errs, ...chDirPrefix(v)];
}

export const isCIdentifier = (v: string): string[] =>
  C_IDENTIFIER.test(v) ? [] : [regexError("a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'", C_IDENTIFIER_FMT, "my_name", "MY_NAME", "MyName")];

export const isValidPercent = (v: string): string[] =>
  PERCENT.test(v) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, "1%", "93%")];

export const isHttpHeaderName = (v: string): string[] =>
  HTTP_HEADER_NAME.test(v) ? [] : [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", HTTP_HEADER_NAME_FMT, "X-Header-Name")];

/** apimachinery's maskTrailingDash: a generateName prefix may end in '-' (a random suffix follows). */
export const maskTrailingDash = (name: string): string => (name.length > 1 && name.endsWith("-") ? `${name.slice(0, -2)}a` : name);

/** A ValidateNameFunc: the messages for `name` (`prefix`: it is a generateName). */
export type NameRule = (name: string, prefix: boolean) => string[];
export const nameIsDnsSubdomain: NameRule = (n, prefix) => isDns1123Subdomain(prefix ? maskTrailingDash(n) : n);
export const nameIsDnsLabel: NameRule = (n, prefix) => isDns1123Label(prefix ? maskTrailingDash(n) : n);
export const nameIsDns1035Label: NameRule = (n, prefix) => isDns1035Label(prefix ? maskTrailingDash(n) : n);

/** path.IsValidPathSegmentName (RBAC, and other kinds whose names only end up in a URL path). */
export function isValidPathSegmentName(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const c of ["/", "%"]) if (name.includes(c)) errs.push(`may not contain '${c}'`);
  return errs;
}
export const nameIsPathSegment: NameRule = (n, prefix) => (prefix ? isValidPathSegmentPrefix(n) : isValidPathSegmentName(n));
function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const c of ["/", "%"]) if (name.includes(c)) errs.push(`may not contain '${c}'`);
  return errs;
}

const DNS1123_LABEL_UNDERSCORE_FMT = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_UNDERSCORE_FMT = `${DNS1123_LABEL_UNDERSCORE_FMT}(\\.${DNS1123_LABEL_UNDERSCORE_FMT})*`;
const DNS1123_SUBDOMAIN_UNDERSCORE = new RegExp(`^${DNS1123_SUBDOMAIN_UNDERSCORE_FMT}$`);
const DNS1123_SUBDOMAIN_UNDERSCORE_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character";

/** IsDNS1123SubdomainWithUnderscore (pod dnsConfig search domains). */
export function isDns1123SubdomainWithUnderscore(v: string): string[] {
  const errs: string[] = [];
  if (byteLength(v) > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN_UNDERSCORE.test(v)) errs.push(regexError(DNS1123_SUBDOMAIN_UNDERSCORE_MSG, DNS1123_SUBDOMAIN_UNDERSCORE_FMT, "example.com"));
  return errs;
}

/** The memoised checks with their one-test shortcuts, for the property test that each shortcut only passes valid values. */
export const SHORTCUTS_FOR_TESTS: readonly { readonly name: string; readonly check: (v: string) => string[]; readonly valid: (v: string) => boolean }[] = [
  { name: "IsDNS1123Label", check: dns1123Label, valid: dns1123LabelValid },
  { name: "IsDNS1123Subdomain", check: dns1123Subdomain, valid: dns1123SubdomainValid },
  { name: "IsQualifiedName", check: qualifiedName, valid: qualifiedNameValid },
  { name: "IsValidLabelValue", check: labelValue, valid: labelValueValid },
];
