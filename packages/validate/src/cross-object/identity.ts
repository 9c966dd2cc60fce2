// Identity checks: chart settings.clusterName, the controller service account vs the IRSA trust, and PassRole scoping.
import type { CrossObjectFinding, IamDocument } from "../types.ts";
import { actionMatches, chartServiceAccountName, fileKey, type IamFacts, type KarpenterChartApp, statements, stringList, wildcardMatches } from "./overlay.ts";
import { describe, dig, finding, isObject, pointer, str } from "./util.ts";

const ROLE_ARN_ANNOTATION = "eks.amazonaws.com/role-arn";

export function clusterNameChecks(app: KarpenterChartApp, clusterName: string | undefined): CrossObjectFinding[] {
  const out: CrossObjectFinding[] = [];
  const settingsName = dig(app.values, "settings", "clusterName");
  if (isObject(dig(app.values, "settings", "aws"))) {
    out.push(
      finding(
        app.resource,
        "deprecated-api",
        `${app.valuesPath}/settings/aws`,
        `${describe(app.resource)} passes settings.aws to the Karpenter chart, a deprecated values block (removed in Karpenter v1); use settings.clusterName and settings.interruptionQueue`,
      ),
    );
  }
  if (settingsName === undefined) {
    out.push(
      finding(
        app.resource,
        "cluster-name-mismatch",
        `${app.valuesPath}/settings`,
        `${describe(app.resource)} does not set settings.clusterName for the Karpenter chart${clusterName ? ` (the cluster is '${clusterName}')` : ""}; the controller cannot start without it`,
      ),
    );
  } else if (clusterName !== undefined && settingsName !== clusterName) {
    out.push(
      finding(
        app.resource,
        "cluster-name-mismatch",
        `${app.valuesPath}/settings/clusterName`,
        `${describe(app.resource)} sets the Karpenter chart's settings.clusterName to ${JSON.stringify(settingsName)}, but the cluster is '${clusterName}'`,
      ),
    );
  }
  return out;
}

export function serviceAccountChecks(app: KarpenterChartApp, iam: IamFacts): CrossObjectFinding[] {
  const out: CrossObjectFinding[] = [];
  const irsa = iam.controllerRoles.filter((r) => r.webIdentity);
  if (irsa.length === 0) return out; // no IRSA role rendered (e.g. Pod Identity): nothing to agree with
  const namespace = app.namespace ?? "default";
  const account = chartServiceAccountName(app);
  const subject = `system:serviceaccount:${namespace}:${account}`;
  const matching = irsa.filter((r) => r.webIdentitySubjects.some((s) => (s.like ? wildcardMatches(s.value, subject) : s.value === subject)));
  if (matching.length === 0) {
    const allowed = irsa.flatMap((r) => r.webIdentitySubjects.map((s) => `'${s.value}' (${r.trustPolicy?.file ?? r.name})`));
    const saPath = dig(app.values, "serviceAccount", "name") !== undefined ? `${app.valuesPath}/serviceAccount/name` : "/spec/destination/namespace";
    out.push(
      finding(
        app.resource,
        "service-account-mismatch",
        saPath,
        `${describe(app.resource)} runs the Karpenter controller as ${subject}, but the IRSA trust policy allows ${allowed.length ? allowed.join(", ") : "no :sub at all"}`,
      ),
    );
  }
  const annotationPath = `${app.valuesPath}/serviceAccount/annotations/${ROLE_ARN_ANNOTATION.replace("/", "~1")}`;
  const annotated = dig(app.values, "serviceAccount", "annotations", ROLE_ARN_ANNOTATION);
  const arns = [...new Set(irsa.map((r) => r.arn).filter((a): a is string => a !== undefined))];
  if (annotated === undefined) {
    out.push(
      finding(
        app.resource,
        "irsa-role-mismatch",
        annotationPath,
        `${describe(app.resource)} does not annotate the controller service account with ${ROLE_ARN_ANNOTATION}, so it cannot assume the IRSA role ${arns.join(", ") || irsa[0]!.name}`,
      ),
    );
  } else if (arns.length > 0 && !arns.includes(String(annotated))) {
    out.push(
      finding(
        app.resource,
        "irsa-role-mismatch",
        annotationPath,
        `${describe(app.resource)} annotates the controller service account with ${ROLE_ARN_ANNOTATION}=${JSON.stringify(annotated)}, but the controller role in ${[...new Set(irsa.map((r) => r.source.file))].join(", ")} is ${arns.join(", ")}`,
      ),
    );
  }
  return out;
}

/** The controller's permission policies: those listed for a controller role, plus any not listed for another role. */
function controllerPolicies(iam: IamFacts): IamDocument[] {
  const others = new Set(iam.roles.filter((r) => !r.webIdentity && !r.podIdentity).flatMap((r) => r.policyFiles));
  return iam.policies.filter((p) => !others.has(fileKey(p.file)));
}

export function passRoleChecks(iam: IamFacts): CrossObjectFinding[] {
  const nodeArns = iam.nodeRoles.map((r) => r.arn).filter((a): a is string => a !== undefined);
  if (nodeArns.length === 0) return [];
  const policies = controllerPolicies(iam);
  if (policies.length === 0) return []; // controller permissions not rendered (yet): nothing to check
  const out: CrossObjectFinding[] = [];
  let passesNodeRole = false;
  for (const doc of policies) {
    statements(doc.object).forEach((st, i) => {
      if (str(dig(st, "Effect")) !== "Allow") return;
      if (!stringList(dig(st, "Action")).some((a) => actionMatches(a, "iam:PassRole"))) return;
      const resources = stringList(dig(st, "Resource"));
      const at = { file: doc.file, index: doc.index, ...(doc.pointer ? { pointer: doc.pointer } : {}) };
      resources.forEach((res, j) => {
        if (nodeArns.includes(res)) {
          passesNodeRole = true;
          return;
        }
        if (nodeArns.some((arn) => wildcardMatches(res, arn))) passesNodeRole = true;
        const path = Array.isArray(dig(st, "Resource")) ? pointer("Statement", i, "Resource", j) : pointer("Statement", i, "Resource");
        const sid = str(dig(st, "Sid"));
        out.push(
          finding(
            at,
            "passrole-not-node-role",
            path,
            `statement ${sid ? `'${sid}'` : `#${i}`} of ${doc.file} allows iam:PassRole on '${res}'; it must name only the node role ${nodeArns.join(", ")}`,
          ),
        );
      });
    });
  }
  // other roles besides the node role (or a wildcard covering it) are too broad, not broken: launches work
  if (passesNodeRole) {
    for (const [i, f] of out.entries()) out[i] = { ...f, severity: "warning" };
  }
  if (!passesNodeRole && out.length === 0) {
    const doc = policies[0]!;
    out.push(
      finding(
        doc,
        "passrole-not-node-role",
        "/Statement",
        `no statement of the controller policies (${policies.map((p) => p.file).join(", ")}) allows iam:PassRole on the node role ${nodeArns.join(", ")}; Karpenter cannot launch nodes without it`,
      ),
    );
  }
  return out;
}
