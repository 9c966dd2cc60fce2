// lintPolicyDocument(): checks one IAM JSON document against IAM's grammar and iam-data, in the spirit of Access Analyzer's policy checks.
import { IAM_LIMITS, policySize } from "../size.ts";
import { arnMatchesTemplate, arnProblems, parseArn, partitionOfRegion } from "./arn.ts";
import { findTagThenActEscalations } from "./escalation.ts";
import { keyValidForAction, pointer, type ResolvedAction, resolveAction, resourceTemplates, type StatementActions } from "./actions.ts";
import { conditionKeyType, keyPatternMatches } from "./iam-data.ts";
import { familiesForType, isMultiValuedType, parseOperator } from "./operators.ts";
import type { LintContext, PolicyFinding, Severity } from "./types.ts";

type Json = Record<string, unknown>;

const STATEMENT_KEYS = new Set(["Sid", "Effect", "Principal", "NotPrincipal", "Action", "NotAction", "Resource", "NotResource", "Condition"]);
const DOCUMENT_KEYS = new Set(["Version", "Id", "Statement"]);
const TRUST_ACTIONS = new Set([
  "sts:assumerole",
  "sts:assumerolewithwebidentity",
  "sts:assumerolewithsaml",
  "sts:tagsession",
  "sts:setsourceidentity",
  "sts:setcontext",
]);
/** How iam-data writes the partition in its ARN templates. */
const PARTITION_PLACEHOLDER = ["$", "{Partition}"].join("");
/** Claims IAM exposes as `<oidc-provider>:<claim>` keys in trust policies. */
const OIDC_CLAIMS = new Set(["aud", "sub", "amr", "oaud", "azp", "email"]);

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function list(v: unknown): unknown[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** Lints one IAM policy document. Pure and synchronous; findings are in document order. */
export function lintPolicyDocument(doc: unknown, context: LintContext): PolicyFinding[] {
  const findings: PolicyFinding[] = [];
  const report = (severity: Severity, code: string, path: string, message: string) => findings.push({ severity, code, path, message });

  if (!isObject(doc)) {
    report("error", "NOT_A_POLICY", "", "a policy document must be a JSON object with Version and Statement");
    return findings;
  }
  for (const key of Object.keys(doc)) {
    if (!DOCUMENT_KEYS.has(key)) report("error", "UNKNOWN_ELEMENT", pointer(key), `'${key}' is not a policy element; remove it (allowed: Version, Id, Statement)`);
  }
  if (doc.Version === undefined) {
    report("warning", "MISSING_VERSION", "/Version", 'add "Version": "2012-10-17"; without it IAM uses 2008-10-17, where policy variables (aws:username and the like) are not replaced');
  } else if (doc.Version === "2008-10-17") {
    report("warning", "OLD_VERSION", "/Version", 'use "Version": "2012-10-17"; 2008-10-17 does not support policy variables');
  } else if (doc.Version !== "2012-10-17") {
    report("error", "INVALID_VERSION", "/Version", `Version must be "2012-10-17", not ${JSON.stringify(doc.Version)}`);
  }

  const rawStatements = doc.Statement;
  if (rawStatements === undefined) {
    report("error", "MISSING_STATEMENT", "/Statement", "add a Statement array with at least one statement");
    return findings;
  }
  const statements = Array.isArray(rawStatements) ? rawStatements : [rawStatements];
  const base = (i: number) => (Array.isArray(rawStatements) ? pointer("Statement", i) : pointer("Statement"));
  const expectedPartition = context.partition ?? firstPartition(statements);
  const sids = new Map<string, number>();
  const resolved: (StatementActions | undefined)[] = [];

  statements.forEach((st, i) => {
    const at = base(i);
    if (!isObject(st)) {
      report("error", "NOT_A_STATEMENT", at, "a statement must be a JSON object with Effect, Action and (for identity policies) Resource");
      resolved.push(undefined);
      return;
    }
    for (const key of Object.keys(st)) {
      if (!STATEMENT_KEYS.has(key)) report("error", "UNKNOWN_ELEMENT", `${at}${pointer(key)}`, `'${key}' is not a statement element; remove it or fix its spelling`);
    }
    lintSid(st, at, i, context, sids, report);
    if (st.Effect !== "Allow" && st.Effect !== "Deny") {
      report("error", "INVALID_EFFECT", `${at}/Effect`, `Effect must be "Allow" or "Deny", not ${JSON.stringify(st.Effect)}`);
    }
    lintPrincipal(st, at, context, expectedPartition, report);
    const actions = lintActions(st, at, context, report);
    resolved.push(actions);
    lintResources(st, at, context, actions, expectedPartition, report);
    lintConditions(st, at, context, actions, report);
    if (st.Effect === "Allow" && actions) lintPassRole(st, at, actions, report);
  });

  if (context.kind === "identity") {
    for (const e of findTagThenActEscalations(statements, resolved, base)) report("security-warning", "PRIVILEGE_ESCALATION_TAG_THEN_ACT", e.path, e.message);
  }
  lintSize(doc, context, report);
  return findings;
}

type Report = (severity: Severity, code: string, path: string, message: string) => void;

function firstPartition(statements: unknown[]): string | undefined {
  for (const st of statements) {
    if (!isObject(st)) continue;
    for (const r of [...list(st.Resource), ...list(st.NotResource)]) {
      const p = typeof r === "string" ? parseArn(r)?.partition : undefined;
      if (p && !/[*?$]/.test(p)) return p;
    }
  }
  return undefined;
}

function lintSid(st: Json, at: string, i: number, context: LintContext, sids: Map<string, number>, report: Report) {
  if (st.Sid === undefined) return;
  if (typeof st.Sid !== "string") {
    report("error", "INVALID_SID", `${at}/Sid`, "Sid must be a string");
    return;
  }
  // IAM accepts only ASCII letters and digits in identity and trust policies; resource policies of other services are freer.
  if (context.kind !== "resource" && !/^[A-Za-z0-9]*$/.test(st.Sid)) {
    report("error", "INVALID_SID", `${at}/Sid`, `Sid '${st.Sid}' may contain only letters A-Z, a-z and digits 0-9; remove other characters`);
  }
  const first = sids.get(st.Sid);
  if (first !== undefined) {
    report("error", "DUPLICATE_SID", `${at}/Sid`, `Sid '${st.Sid}' is already used by statement ${first}; give every statement a unique Sid`);
  } else {
    sids.set(st.Sid, i);
  }
}

function lintPrincipal(st: Json, at: string, context: LintContext, partition: string | undefined, report: Report) {
  const has = st.Principal !== undefined || st.NotPrincipal !== undefined;
  if (context.kind === "identity") {
    if (has) report("error", "PRINCIPAL_IN_IDENTITY_POLICY", `${at}/${st.Principal !== undefined ? "Principal" : "NotPrincipal"}`, "identity policies cannot name a Principal; remove it (the policy applies to the identity it is attached to)");
    return;
  }
  if (!has) {
    report("error", "MISSING_PRINCIPAL", `${at}/Principal`, `a ${context.kind} policy statement needs a Principal saying who it applies to`);
    return;
  }
  if (st.NotPrincipal !== undefined && st.Effect === "Allow") {
    report("security-warning", "ALLOW_WITH_NOT_PRINCIPAL", `${at}/NotPrincipal`, "Allow with NotPrincipal grants access to every principal except those listed; name the allowed principals in Principal instead");
  }
  const principal = st.Principal;
  if (principal === "*") {
    if (st.Effect === "Allow" && st.Condition === undefined) {
      report("security-warning", "PUBLIC_ACCESS", `${at}/Principal`, 'Principal "*" without a Condition lets anyone in any account in; name the principals or add conditions such as aws:SourceAccount');
    }
    return;
  }
  if (!isObject(principal)) {
    if (principal !== undefined) report("error", "INVALID_PRINCIPAL", `${at}/Principal`, 'Principal must be "*" or an object such as {"Service": "ec2.amazonaws.com"}');
    return;
  }
  for (const [type, values] of Object.entries(principal)) {
    const path = `${at}/Principal${pointer(type)}`;
    if (!["AWS", "Service", "Federated", "CanonicalUser"].includes(type)) {
      report("error", "INVALID_PRINCIPAL", path, `'${type}' is not a principal type; use AWS, Service, Federated or CanonicalUser`);
      continue;
    }
    list(values).forEach((v, j) => {
      const vpath = Array.isArray(values) ? `${path}/${j}` : path;
      if (typeof v !== "string") {
        report("error", "INVALID_PRINCIPAL", vpath, "principal values must be strings");
        return;
      }
      if (type === "Service") {
        if (!/^[a-z0-9.-]+\.amazonaws\.com(\.cn)?$/.test(v)) {
          report("error", "INVALID_PRINCIPAL", vpath, `'${v}' is not a service principal; write it as <service>.amazonaws.com`);
        } else if (v.endsWith(".amazonaws.com.cn") && partition !== undefined && partition !== "aws-cn") {
          report("error", "WRONG_PARTITION", vpath, `'${v}' is a China-partition principal but this policy is for partition ${partition}; use ${v.replace(/\.cn$/, "")}`);
        }
        return;
      }
      if (v.startsWith("arn:")) lintArn(v, vpath, partition, report);
    });
  }
}

function lintActions(st: Json, at: string, context: LintContext, report: Report): StatementActions | undefined {
  const key = st.Action !== undefined ? "Action" : st.NotAction !== undefined ? "NotAction" : undefined;
  if (!key) {
    report("error", "MISSING_ACTION", `${at}/Action`, "add an Action list naming what the statement allows or denies");
    return undefined;
  }
  if (st.Action !== undefined && st.NotAction !== undefined) {
    report("error", "ACTION_AND_NOT_ACTION", `${at}/NotAction`, "a statement has either Action or NotAction, not both; remove one");
  }
  if (key === "NotAction" && st.Effect === "Allow") {
    report("warning", "ALLOW_WITH_NOT_ACTION", `${at}/NotAction`, "Allow with NotAction grants every action not listed, including future ones; list the allowed actions in Action instead");
  }
  const raw = st[key];
  const values = list(raw);
  let all = false;
  const actions: ResolvedAction[] = [];
  values.forEach((v, j) => {
    const path = Array.isArray(raw) ? `${at}/${key}/${j}` : `${at}/${key}`;
    if (typeof v !== "string") {
      report("error", "MALFORMED_ACTION", path, "actions must be strings such as ec2:RunInstances");
      return;
    }
    const r = resolveAction(v);
    if (r === "all") {
      all = true;
      if (key === "Action" && st.Effect === "Allow" && context.kind === "identity") {
        report("security-warning", "ALLOW_ALL_ACTIONS", path, 'Action "*" allows every action of every service; list the actions the principal needs');
      }
    } else if ("error" in r) {
      report("error", r.code, path, r.error);
    } else {
      if (context.kind === "trust" && key === "Action" && r.some((a) => !TRUST_ACTIONS.has(`${a.service}:${a.data.name.toLowerCase()}`))) {
        report("error", "NOT_A_TRUST_ACTION", path, `'${v}' cannot be granted by a trust policy; use sts:AssumeRole, sts:AssumeRoleWithWebIdentity, sts:TagSession or another sts action`);
      }
      actions.push(...r);
    }
  });
  // NotAction statements apply to everything else; treat them as "all" for the checks that need the action set.
  return key === "NotAction" ? { all: true, actions: [] } : { all, actions };
}

function lintArn(arn: string, path: string, partition: string | undefined, report: Report) {
  const parsed = parseArn(arn);
  if (!parsed) {
    report("error", "MALFORMED_ARN", path, `'${arn}' is not an ARN; write arn:<partition>:<service>:<region>:<account>:<resource>`);
    return;
  }
  for (const problem of arnProblems(parsed)) report("error", "MALFORMED_ARN", path, `'${arn}': ${problem}`);
  if (partition !== undefined && !/[*?$]/.test(parsed.partition) && parsed.partition !== partition) {
    report("error", "WRONG_PARTITION", path, `'${arn}' is in partition ${parsed.partition}, but this policy is for ${partition}; use arn:${partition}:...`);
  }
  const regionPartition = partitionOfRegion(parsed.region);
  if (regionPartition && !/[*?$]/.test(parsed.partition) && regionPartition !== parsed.partition) {
    report("error", "WRONG_PARTITION", path, `'${arn}': region ${parsed.region} is in partition ${regionPartition}, not ${parsed.partition}`);
  }
}

function lintResources(st: Json, at: string, context: LintContext, actions: StatementActions | undefined, partition: string | undefined, report: Report) {
  const key = st.Resource !== undefined ? "Resource" : st.NotResource !== undefined ? "NotResource" : undefined;
  if (context.kind === "trust") {
    if (key) report("error", "RESOURCE_IN_TRUST_POLICY", `${at}/${key}`, "a trust policy's resource is the role itself; remove the Resource element");
    return;
  }
  if (!key) {
    report("error", "MISSING_RESOURCE", `${at}/Resource`, 'add a Resource list (ARNs, or "*" for actions that take no resource)');
    return;
  }
  if (st.Resource !== undefined && st.NotResource !== undefined) {
    report("error", "RESOURCE_AND_NOT_RESOURCE", `${at}/NotResource`, "a statement has either Resource or NotResource, not both; remove one");
  }
  const raw = st[key];
  const arns: { arn: string; path: string }[] = [];
  let star = false;
  list(raw).forEach((v, j) => {
    const path = Array.isArray(raw) ? `${at}/${key}/${j}` : `${at}/${key}`;
    if (typeof v !== "string") {
      report("error", "MALFORMED_ARN", path, 'resources must be ARN strings or "*"');
      return;
    }
    if (v === "*") {
      star = true;
      return;
    }
    lintArn(v, path, partition, report);
    if (parseArn(v)) arns.push({ arn: v, path });
  });
  if (key !== "Resource" || !actions || actions.all) return;

  const scoped = actions.actions.filter((a) => a.data.resourceTypes.length > 0);
  // the statement's actions share most templates (ec2:Describe* expands to hundreds of actions): each asked once
  const templates = arns.length > 0 ? [...new Set(actions.actions.flatMap((a) => resourceTemplates(a)))] : [];
  for (const { arn, path } of arns) {
    if (!templates.some((t) => arnMatchesTemplate(arn, t))) {
      report("error", "RESOURCE_MATCHES_NO_ACTION", path, `'${arn}' matches no resource type of the statement's actions, so it grants nothing; fix the ARN or move it to a statement with the right actions`);
    }
  }
  if (!star) {
    // Wildcards expand to actions the author did not mean individually; only named actions must each be usable.
    for (const a of actions.actions.filter((x) => x.literal)) {
      const name = `${a.service}:${a.data.name}`;
      if (a.data.resourceTypes.length === 0) {
        report("error", "ACTION_NEEDS_STAR_RESOURCE", `${at}/Resource`, `${name} does not support resource-level permissions; put it in a statement with "Resource": "*"`);
      } else if (!arns.some(({ arn }) => resourceTemplates(a).some((t) => arnMatchesTemplate(arn, t)))) {
        report("warning", "ACTION_MATCHES_NO_RESOURCE", `${at}/Resource`, `none of the statement's resources is a resource type of ${name}, so the statement never allows it; add its resource ARN or remove the action`);
      }
    }
  } else if (st.Effect === "Allow" && scoped.length > 0) {
    const named = scoped.filter((a) => a.literal).map((a) => `${a.service}:${a.data.name}`);
    const viaWildcards = scoped.length - named.length;
    const names = viaWildcards > 0 ? [...named, `${viaWildcards} actions matched by wildcards`] : named;
    // A service-specific key the action itself defines (e.g. arc-zonal-shift:ResourceIdentifier) can name the resource when its ARN cannot.
    const conditionKeys = isObject(st.Condition) ? Object.values(st.Condition).flatMap((v) => (isObject(v) ? Object.keys(v) : [])) : [];
    const namedByCondition = scoped.every((a) => conditionKeys.some((k) => !k.startsWith("aws:") && a.data.conditionKeys.some((p) => keyPatternMatches(p, k))));
    report(
      namedByCondition ? "suggestion" : "warning",
      "RESOURCE_STAR_SCOPABLE",
      `${at}/Resource`,
      namedByCondition
        ? `"Resource": "*" with ${names.join(", ")}; the condition names the resource, which is as tight as IAM's resource types allow here`
        : `"Resource": "*" allows ${names.join(", ")} on every resource; these actions support resource ARNs, so list the ARNs they need (e.g. ${(resourceTemplates(scoped[0]!)[0] ?? "the resource ARN").replace(PARTITION_PLACEHOLDER, partition ?? PARTITION_PLACEHOLDER)})`,
    );
  }
}

function lintConditions(st: Json, at: string, context: LintContext, actions: StatementActions | undefined, report: Report) {
  if (st.Condition === undefined) return;
  if (!isObject(st.Condition)) {
    report("error", "INVALID_CONDITION", `${at}/Condition`, 'Condition must be an object such as {"StringEquals": {"aws:RequestedRegion": "us-east-1"}}');
    return;
  }
  const oidcProviders = context.kind === "trust" ? federatedOidcProviders(st) : [];
  for (const [operator, block] of Object.entries(st.Condition)) {
    const opPath = `${at}/Condition${pointer(operator)}`;
    const op = parseOperator(operator);
    if (!op) {
      report("error", "INVALID_OPERATOR", opPath, `'${operator}' is not a condition operator; use e.g. StringEquals, StringLike, ArnLike, Bool, NumericLessThan, with optional IfExists or ForAllValues:/ForAnyValue:`);
      continue;
    }
    if (!isObject(block)) {
      report("error", "INVALID_CONDITION", opPath, `${operator} must map condition keys to values`);
      continue;
    }
    for (const [key, value] of Object.entries(block)) {
      const path = `${opPath}${pointer(key)}`;
      const values = list(value);
      if (values.some((v) => typeof v !== "string" && typeof v !== "boolean" && typeof v !== "number")) {
        report("error", "INVALID_CONDITION_VALUE", path, "condition values must be strings, numbers or booleans, or a list of them");
      }
      let type: string | undefined;
      const oidc = oidcProviders.find((p) => key.toLowerCase().startsWith(`${p.toLowerCase()}:`));
      if (oidc) {
        const claim = key.slice(oidc.length + 1);
        if (!OIDC_CLAIMS.has(claim)) {
          report("error", "INVALID_CONDITION_KEY", path, `'${claim}' is not a claim IAM exposes for OIDC providers; use ${oidc}:aud, :sub or :amr`);
        }
        type = claim === "amr" ? "ArrayOfString" : "String";
      } else {
        type = conditionKeyType(key);
        if (type === undefined) {
          report("error", "UNKNOWN_CONDITION_KEY", path, `'${key}' is not a known condition key; check its spelling against the Service Authorization Reference`);
        } else if (actions && !actions.all && actions.actions.length > 0) {
          const invalid = actions.actions.filter((a) => !keyValidForAction(key, a));
          const namedInvalid = invalid.filter((a) => a.literal);
          if (invalid.length === actions.actions.length) {
            report("error", "CONDITION_KEY_NOT_VALID_FOR_ACTIONS", path, `'${key}' is not available for ${describeActions(invalid)}, so this condition never matches; use a key those actions support or move the key to a statement whose actions support it`);
          } else if (namedInvalid.length > 0 && !op.ifExists && !op.negated && st.Effect === "Allow") {
            report("warning", "CONDITION_KEY_NOT_VALID_FOR_SOME_ACTIONS", path, `'${key}' is not available for ${describeActions(namedInvalid)}, so the statement never allows them; move them to their own statement or use ${op.base}IfExists`);
          }
        }
      }
      if (type === undefined || op.family === "Null") {
        if (op.family === "Null" && values.some((v) => String(v) !== "true" && String(v) !== "false")) {
          report("error", "INVALID_CONDITION_VALUE", path, 'Null takes "true" (key absent) or "false" (key present)');
        }
        continue;
      }
      if (!familiesForType(type).includes(op.family)) {
        report("error", "MISMATCHED_OPERATOR_TYPE", path, `'${key}' is of type ${type}; ${op.base} compares ${op.family} values, use a ${familiesForType(type)[0]} operator`);
        continue;
      }
      if (isMultiValuedType(type) && !op.setOperator) {
        report("warning", "MISSING_SET_OPERATOR", opPath, `'${key}' can have several values; write ForAllValues:${operator} or ForAnyValue:${operator} to say how they compare`);
      } else if (!isMultiValuedType(type) && op.setOperator) {
        report("warning", "SET_OPERATOR_ON_SINGLE_VALUED_KEY", opPath, `'${key}' has a single value; drop ${op.setOperator}: (with ForAllValues the condition also matches when the key is absent)`);
      }
      if (op.family === "Bool" && values.some((v) => String(v) !== "true" && String(v) !== "false")) {
        report("error", "INVALID_CONDITION_VALUE", path, 'Bool takes "true" or "false"');
      }
      if (op.family === "Numeric" && values.some((v) => Number.isNaN(Number(v)))) {
        report("error", "INVALID_CONDITION_VALUE", path, `${op.base} needs numbers`);
      }
      if (op.family === "Arn") {
        for (const v of values) if (typeof v === "string" && v !== "*" && !parseArn(v)) report("error", "MALFORMED_ARN", path, `'${v}' is not an ARN; ${op.base} compares ARNs`);
      }
    }
  }
  if (context.kind === "trust") lintWebIdentityTrust(st, at, oidcProviders, report);
}

function describeActions(actions: readonly ResolvedAction[]): string {
  const names = actions.map((a) => `${a.service}:${a.data.name}`);
  return names.length > 4 ? `${names.slice(0, 4).join(", ")} and ${names.length - 4} more` : names.join(", ");
}

function federatedOidcProviders(st: Json): string[] {
  if (!isObject(st.Principal)) return [];
  return list(st.Principal.Federated).flatMap((f) => {
    const m = typeof f === "string" ? /^arn:[^:]+:iam::[^:]*:oidc-provider\/(.+)$/.exec(f) : null;
    return m ? [m[1]!] : [];
  });
}

/** An IRSA trust must pin the audience and the exact service account; otherwise any pod of the cluster could assume the role. */
function lintWebIdentityTrust(st: Json, at: string, providers: readonly string[], report: Report) {
  if (st.Effect !== "Allow") return;
  for (const provider of providers) {
    const conditions = isObject(st.Condition) ? st.Condition : {};
    const find = (claim: string) =>
      Object.entries(conditions).flatMap(([op, block]) => (isObject(block) && block[`${provider}:${claim}`] !== undefined ? [{ op, value: block[`${provider}:${claim}`] }] : []));
    const sub = find("sub");
    if (sub.length === 0) {
      report("security-warning", "WEB_IDENTITY_WITHOUT_SUBJECT", `${at}/Condition`, `any identity of ${provider} can assume this role; add StringEquals ${provider}:sub = system:serviceaccount:<namespace>:<serviceaccount>`);
    } else if (sub.some(({ op, value }) => !op.startsWith("StringEquals") || list(value).some((v) => /[*?]/.test(String(v))))) {
      report("warning", "WEB_IDENTITY_SUBJECT_PATTERN", `${at}/Condition`, `${provider}:sub is matched by a pattern; use StringEquals with the exact service account subject`);
    }
    if (find("aud").length === 0) {
      report("warning", "WEB_IDENTITY_WITHOUT_AUDIENCE", `${at}/Condition`, `add StringEquals ${provider}:aud = sts.amazonaws.com so tokens minted for other audiences are refused`);
    }
  }
}

function lintPassRole(st: Json, at: string, actions: StatementActions, report: Report) {
  const passes = actions.all || actions.actions.some((a) => a.service === "iam" && a.data.name === "PassRole");
  if (!passes || st.Resource === undefined) return;
  const resources = list(st.Resource).filter((r): r is string => typeof r === "string");
  if (resources.some((r) => r === "*" || /:role\/\*$/.test(r))) {
    report("security-warning", "PASS_ROLE_WITH_WILDCARD_RESOURCE", `${at}/Resource`, "iam:PassRole on every role lets the principal hand any role (including admin roles) to a service; list the role ARNs it must pass");
  }
  const conditions = isObject(st.Condition) ? Object.values(st.Condition).flatMap((b) => (isObject(b) ? Object.keys(b) : [])) : [];
  if (!conditions.some((k) => k.toLowerCase() === "iam:passedtoservice")) {
    report("security-warning", "PASS_ROLE_WITHOUT_PASSED_TO_SERVICE", `${at}`, 'iam:PassRole without an iam:PassedToService condition lets the role be passed to any service (e.g. Lambda); add "Condition": {"StringEquals": {"iam:PassedToService": "ec2.amazonaws.com"}}');
  }
}

function lintSize(doc: Json, context: LintContext, report: Report) {
  const size = policySize(doc);
  if (context.kind === "trust") {
    if (size > IAM_LIMITS.trustPolicyMax) {
      report("error", "POLICY_TOO_LARGE", "", `${size} characters; a trust policy can have at most ${IAM_LIMITS.trustPolicyMax} (whitespace excluded); remove statements or conditions`);
    } else if (size > IAM_LIMITS.trustPolicy) {
      report("warning", "POLICY_TOO_LARGE", "", `${size} characters; above the default trust policy quota of ${IAM_LIMITS.trustPolicy}; raise the account quota (at most ${IAM_LIMITS.trustPolicyMax}) or shorten the policy`);
    }
    return;
  }
  const limit = context.kind === "resource" ? IAM_LIMITS.queuePolicy : context.attachment === "managed" ? IAM_LIMITS.managedPolicy : IAM_LIMITS.inlineRolePolicies;
  const what = context.kind === "resource" ? "an SQS queue policy" : context.attachment === "managed" ? "a managed policy" : "a role's inline policies together";
  if (size > limit) {
    report("error", "POLICY_TOO_LARGE", "", `${size} characters (whitespace excluded); ${what} can have at most ${limit}; split the statements across several documents (packPolicies does this) or remove some`);
  }
}
