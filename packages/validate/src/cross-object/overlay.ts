// What the cross-object checks know about one overlay: its resources grouped together, the Karpenter
// chart Application, the IAM roles (node / controller) read from rendered/iam, and the overlay's facts.
import { yamlLib } from "../yaml-lib.ts";
import type { IamDocument, ParsedResource } from "../types.ts";
import { arr, dig, groupOf, isObject, type JsonObject, str } from "./util.ts";
import { compareText } from "@eks-gitops/config/order";

/** Facts about an overlay that the rendered documents do not carry (from clusters/<name>/cluster.ts). */
export interface OverlayFacts {
  readonly clusterName?: string;
  /** e.g. `1.36`. Without it the compatibility check cannot run. */
  readonly kubernetesVersion?: string;
  /** Used when no Karpenter chart Application is rendered. */
  readonly karpenterVersion?: string;
}

/** The files of one run that belong together: an overlay's rendered/ folder, or everything else. */
export interface OverlayGroup {
  /** Overlay name (`clusters/<name>/rendered/...`), or "" for files outside any overlay. */
  readonly name: string;
  readonly resources: readonly ParsedResource[];
  readonly iam: readonly IamDocument[];
}

const OVERLAY_PATH = /(?:^|[\\/])clusters[\\/]([^\\/]+)[\\/]rendered(?:[\\/]|$)/;

/** The overlay a file belongs to, or "" when it is not under clusters/<name>/rendered/. */
export function overlayOf(file: string): string {
  return OVERLAY_PATH.exec(file)?.[1] ?? "";
}

/** Groups a run's documents by overlay; `overlayOfFile` lets a caller that knows the repository root decide (default: the path). */
export function groupByOverlay(
  resources: readonly ParsedResource[],
  iam: readonly IamDocument[],
  overlayOfFile: (file: string) => string | undefined = overlayOf,
): OverlayGroup[] {
  const groups = new Map<string, { resources: ParsedResource[]; iam: IamDocument[] }>();
  const get = (name: string) => {
    const existing = groups.get(name);
    if (existing) return existing;
    const created = { resources: [] as ParsedResource[], iam: [] as IamDocument[] };
    groups.set(name, created);
    return created;
  };
  for (const r of resources) get(overlayOfFile(r.file) ?? "").resources.push(r);
  for (const d of iam) get(overlayOfFile(d.file) ?? "").iam.push(d);
  return [...groups.entries()].sort(([a], [b]) => compareText(a, b)).map(([name, g]) => ({ name, ...g }));
}

/** The Argo CD Application that installs the Karpenter Helm chart, with the values it passes. */
export interface KarpenterChartApp {
  readonly resource: ParsedResource;
  /** JSON Pointer of the chart source (`/spec/source` or `/spec/sources/<i>`). */
  readonly sourcePath: string;
  /** Pointer of the values object (`<source>/helm/valuesObject`), or of the values string. */
  readonly valuesPath: string;
  readonly values: JsonObject;
  readonly targetRevision: string | undefined;
  /** The release namespace (spec.destination.namespace). */
  readonly namespace: string | undefined;
  /** The Helm release name Argo CD uses (helm.releaseName, else the Application's name). */
  readonly releaseName: string;
}

export function findKarpenterChartApps(resources: readonly ParsedResource[]): KarpenterChartApp[] {
  const apps: KarpenterChartApp[] = [];
  for (const r of resources) {
    if (r.kind !== "Application" || groupOf(r.apiVersion) !== "argoproj.io") continue;
    const sources: [string, unknown][] = [];
    if (isObject(dig(r.object, "spec", "source"))) sources.push(["/spec/source", dig(r.object, "spec", "source")]);
    arr(dig(r.object, "spec", "sources")).forEach((s, i) => {
      sources.push([`/spec/sources/${i}`, s]);
    });
    for (const [sourcePath, source] of sources) {
      if (str(dig(source, "chart")) !== "karpenter") continue;
      const helm = dig(source, "helm");
      let values: JsonObject = {};
      let valuesPath = `${sourcePath}/helm/valuesObject`;
      if (isObject(dig(helm, "valuesObject"))) {
        values = dig(helm, "valuesObject") as JsonObject;
      } else if (typeof dig(helm, "values") === "string") {
        valuesPath = `${sourcePath}/helm/values`;
        values = parseValues(dig(helm, "values") as string);
      }
      apps.push({
        resource: r,
        sourcePath,
        valuesPath,
        values,
        targetRevision: str(dig(source, "targetRevision")),
        namespace: str(dig(r.object, "spec", "destination", "namespace")),
        releaseName: str(dig(helm, "releaseName")) ?? r.name,
      });
    }
  }
  return apps;
}

function parseValues(text: string): JsonObject {
  try {
    const parsed: unknown = yamlLib().parse(text, { maxAliasCount: 100 });
    return isObject(parsed) ? parsed : {};
  } catch {
    // A broken values string is the schema/engine's finding to report, not a cross-object one.
    return {};
  }
}

/** The service account name the Karpenter chart renders (its `karpenter.serviceAccountName` helper). */
export function chartServiceAccountName(app: KarpenterChartApp): string {
  const explicit = str(dig(app.values, "serviceAccount", "name"));
  if (explicit) return explicit;
  const fullnameOverride = str(dig(app.values, "fullnameOverride"));
  if (fullnameOverride) return fullnameOverride.slice(0, 63).replace(/-+$/, "");
  const chartName = str(dig(app.values, "nameOverride")) ?? "karpenter";
  const full = app.releaseName.includes(chartName) ? app.releaseName : `${app.releaseName}-${chartName}`;
  return full.slice(0, 63).replace(/-+$/, "");
}

/** One IAM role of rendered/iam/index.json, with its trust policy resolved. */
export interface IamRole {
  readonly name: string;
  readonly arn: string | undefined;
  /** The index.json document the role is listed in (findings about roles point there). */
  readonly source: IamDocument;
  readonly trustPolicy: IamDocument | undefined;
  /** Files of the permission policies the index lists for this role (inline and customer-managed). */
  readonly policyFiles: readonly string[];
  /** The role trusts the EC2 service principal (a node role). */
  readonly trustsEc2: boolean;
  /** `:sub` values the role's web-identity trust allows (an IRSA role), with the operator used. */
  readonly webIdentitySubjects: readonly { readonly value: string; readonly like: boolean }[];
  readonly webIdentity: boolean;
  /** The role trusts EKS Pod Identity (pods.eks.amazonaws.com): a controller role without IRSA. */
  readonly podIdentity: boolean;
}

export interface IamFacts {
  readonly roles: readonly IamRole[];
  readonly nodeRoles: readonly IamRole[];
  readonly controllerRoles: readonly IamRole[];
  /** Permission policy documents (not trust policies, not the index). */
  readonly policies: readonly IamDocument[];
}

const EC2_PRINCIPAL = /^ec2\.amazonaws\.com(\.cn)?$/;

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}
function dirName(file: string): string {
  const i = Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\"));
  return i < 0 ? "" : file.slice(0, i);
}

/** A file's identity for matching index.json references (which are relative to the index's folder). */
export function fileKey(file: string): string {
  return `${dirName(file)}/${baseName(file)}`;
}

export function readIamFacts(iam: readonly IamDocument[]): IamFacts {
  const byPath = new Map(iam.map((d) => [fileKey(d.file), d]));
  const roles: IamRole[] = [];
  for (const index of iam.filter((d) => d.iamKind === "index")) {
    for (const role of arr(dig(index.object, "roles"))) {
      const name = str(dig(role, "name"));
      if (!name) continue;
      const trustFile = str(dig(role, "trustPolicyFile"));
      const trustPolicy = trustFile ? byPath.get(`${dirName(index.file)}/${baseName(trustFile)}`) : undefined;
      // Inline and customer-managed policies both carry a rendered `file`.
      const policyFiles = [...arr(dig(role, "inlinePolicies")), ...arr(dig(role, "customerManagedPolicies"))]
        .map((p) => str(dig(p, "file")))
        .filter((f): f is string => f !== undefined)
        .map((f) => `${dirName(index.file)}/${baseName(f)}`);
      roles.push({ name, arn: str(dig(role, "arn")), source: index, trustPolicy, policyFiles, ...readTrust(trustPolicy?.object) });
    }
  }
  return {
    roles,
    nodeRoles: roles.filter((r) => r.trustsEc2),
    controllerRoles: roles.filter((r) => r.webIdentity || r.podIdentity),
    policies: iam.filter((d) => d.iamKind === "policy"),
  };
}

function readTrust(doc: unknown): Pick<IamRole, "trustsEc2" | "webIdentity" | "webIdentitySubjects" | "podIdentity"> {
  let trustsEc2 = false;
  let webIdentity = false;
  let podIdentity = false;
  const webIdentitySubjects: { value: string; like: boolean }[] = [];
  for (const st of statements(doc)) {
    if (str(dig(st, "Effect")) !== "Allow") continue;
    const actions = stringList(dig(st, "Action"));
    const services = stringList(dig(st, "Principal", "Service"));
    if (services.some((s) => EC2_PRINCIPAL.test(s)) && actions.some((a) => actionMatches(a, "sts:AssumeRole"))) trustsEc2 = true;
    if (services.includes("pods.eks.amazonaws.com") && actions.some((a) => actionMatches(a, "sts:AssumeRole"))) podIdentity = true;
    if (stringList(dig(st, "Principal", "Federated")).length > 0 && actions.some((a) => actionMatches(a, "sts:AssumeRoleWithWebIdentity"))) {
      webIdentity = true;
      const condition = dig(st, "Condition");
      if (!isObject(condition)) continue;
      for (const [operator, block] of Object.entries(condition)) {
        if (!isObject(block)) continue;
        const like = /^StringLike$/i.test(operator.replace(/^ForAnyValue:|^ForAllValues:/, ""));
        const equals = /^StringEquals$/i.test(operator.replace(/^ForAnyValue:|^ForAllValues:/, ""));
        if (!like && !equals) continue;
        for (const [key, value] of Object.entries(block)) {
          if (key.endsWith(":sub")) for (const v of stringList(value)) webIdentitySubjects.push({ value: v, like });
        }
      }
    }
  }
  return { trustsEc2, webIdentity, webIdentitySubjects, podIdentity };
}

export function statements(doc: unknown): readonly unknown[] {
  const s = dig(doc, "Statement");
  return Array.isArray(s) ? s : isObject(s) ? [s] : [];
}

export function stringList(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return arr(value).filter((v): v is string => typeof v === "string");
}

/** IAM wildcard match (`*`, `?`), case-insensitive as IAM action names are. */
export function actionMatches(pattern: string, action: string): boolean {
  return wildcardMatches(pattern.toLowerCase(), action.toLowerCase());
}

/** IAM / StringLike wildcard match: `*` any run, `?` one character. */
export function wildcardMatches(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".")}$`, "s");
  return re.test(value);
}
