// ARN parsing and matching policy ARNs (with * and ?) against iam-data resource-type ARN templates (with ${Var}).

export const PARTITIONS = ["aws", "aws-cn", "aws-us-gov", "aws-iso", "aws-iso-b", "aws-iso-e", "aws-iso-f", "aws-eusc"] as const;

export interface ParsedArn {
  readonly partition: string;
  readonly service: string;
  readonly region: string;
  readonly account: string;
  readonly resource: string;
}

/** Splits `arn:partition:service:region:account:resource`; undefined when the shape is wrong. */
export function parseArn(arn: string): ParsedArn | undefined {
  const parts = arn.split(":");
  if (parts.length < 6 || parts[0] !== "arn") return undefined;
  const [, partition, service, region, account] = parts as [string, string, string, string, string];
  const resource = parts.slice(5).join(":");
  if (!partition || !service || !resource) return undefined;
  return { partition, service, region, account, resource };
}

const WILDCARD = /[*?]|\$\{[^}]*\}/;

/** Problems with one ARN's fields, each a sentence saying how to fix it. */
export function arnProblems(arn: ParsedArn): string[] {
  const problems: string[] = [];
  if (!WILDCARD.test(arn.partition) && !(PARTITIONS as readonly string[]).includes(arn.partition)) {
    problems.push(`partition '${arn.partition}' is not an AWS partition; use one of ${PARTITIONS.slice(0, 3).join(", ")}`);
  }
  if (arn.region && !WILDCARD.test(arn.region) && !/^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d$/.test(arn.region)) {
    problems.push(`region '${arn.region}' is not a region name such as ap-southeast-1`);
  }
  if (arn.account && !WILDCARD.test(arn.account) && arn.account !== "aws" && !/^\d{12}$/.test(arn.account)) {
    problems.push(`account '${arn.account}' must be 12 digits, empty, or a wildcard`);
  }
  return problems;
}

/** The partition a region name belongs to, or undefined for wildcards and unknown shapes. */
export function partitionOfRegion(region: string): string | undefined {
  if (!region || WILDCARD.test(region)) return undefined;
  if (region.startsWith("cn-")) return "aws-cn";
  if (region.startsWith("us-gov-")) return "aws-us-gov";
  if (region.startsWith("us-iso")) return undefined;
  return "aws";
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Policy ARN (its * and ? are wildcards, ${...} policy variables match anything) as a regular expression. */
const policyArnRegexes = new Map<string, RegExp>();
const templateRegexes = new Map<string, RegExp>();

/** Compiled once per key (a Map per kind: no key string is built per question). */
function cached(cache: Map<string, RegExp>, key: string, build: (key: string) => RegExp): RegExp {
  let re = cache.get(key);
  if (!re) {
    re = build(key);
    cache.set(key, re);
  }
  return re;
}

function policyArnRegex(arn: string): RegExp {
  return cached(policyArnRegexes, arn, buildPolicyArnRegex);
}

function buildPolicyArnRegex(arn: string): RegExp {
  const source = arn
    .split(/(\$\{[^}]*\}|\*|\?)/)
    .map((part) => (part === "?" ? "." : part === "*" || part.startsWith("${") ? ".*" : escapeRegex(part)))
    .join("");
  return new RegExp(`^${source}$`);
}

/** Template `${Var}` placeholders as "any text" (one ARN field before the resource part, anything after). */
function templateRegex(template: string): RegExp {
  return cached(templateRegexes, template, buildTemplateRegex);
}

function buildTemplateRegex(template: string): RegExp {
  const head = template.split(":").slice(0, 5).join(":").length;
  let source = "";
  let i = 0;
  for (const m of template.matchAll(/\$\{[^}]+\}/g)) {
    source += escapeRegex(template.slice(i, m.index));
    source += m.index! < head ? "[^:]*" : ".+";
    i = m.index! + m[0].length;
  }
  source += escapeRegex(template.slice(i));
  return new RegExp(`^${source}$`);
}

/** A concrete ARN of the template, with the given partition, to test a wildcard policy ARN against. */
function templateSample(template: string, partition: string): string {
  return template
    .replace(/\$\{Partition\}/g, partition)
    .replace(/\$\{Region\}/g, "us-east-1")
    .replace(/\$\{Account\}/g, "123456789012")
    .replace(/\$\{[^}]+\}/g, "example");
}

/** Samples by partition, then template: a linted policy asks for the same few thousand again and again. */
const samples = new Map<string, Map<string, string>>();

function cachedSample(template: string, partition: string): string {
  let byTemplate = samples.get(partition);
  if (!byTemplate) {
    byTemplate = new Map();
    samples.set(partition, byTemplate);
  }
  let sample = byTemplate.get(template);
  if (sample === undefined) {
    sample = templateSample(template, partition);
    byTemplate.set(template, sample);
  }
  return sample;
}

/** Answers by template, then policy ARN (nested maps: no key string is built per question). */
const matches = new Map<string, Map<string, boolean>>();
/** The partition of each policy ARN asked about, and its service when `arn:partition:service` holds no wildcard. */
const policyArns = new Map<string, { partition: string; service: string | undefined }>();
/** The service of each template, when written out (not a `${...}` placeholder). */
const templateServices = new Map<string, string | undefined>();

function policyArnFacts(arn: string): { partition: string; service: string | undefined } {
  let facts = policyArns.get(arn);
  if (!facts) {
    const parsed = parseArn(arn);
    const literal = parsed !== undefined && !/[*?]|\$\{/.test(`${parsed.partition}:${parsed.service}`);
    facts = { partition: parsed?.partition ?? "aws", service: literal ? parsed?.service : undefined };
    policyArns.set(arn, facts);
  }
  return facts;
}

function templateService(template: string): string | undefined {
  let service = templateServices.get(template);
  if (service === undefined && !templateServices.has(template)) {
    const field = template.split(":")[2];
    service = field === undefined || field.includes("${") ? undefined : field;
    templateServices.set(template, service);
  }
  return service;
}

/** Whether a policy's resource ARN can name a resource of the type whose ARN template is given. */
export function arnMatchesTemplate(policyArn: string, template: string): boolean {
  let byArn = matches.get(template);
  if (!byArn) {
    byArn = new Map();
    matches.set(template, byArn);
  }
  let result = byArn.get(policyArn);
  if (result === undefined) {
    const arn = policyArnFacts(policyArn);
    const service = templateService(template);
    // both services written out and different: neither regular expression below can match (each anchors
    // `arn:partition:service:` literally), so the answer is known without running them
    result =
      arn.service !== undefined && service !== undefined && arn.service !== service
        ? false
        : templateRegex(template).test(policyArn) || policyArnRegex(policyArn).test(cachedSample(template, arn.partition));
    byArn.set(policyArn, result);
  }
  return result;
}
