// aws-auth merge: unit cases and a property test over thousands of random mapRoles/mapUsers documents.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, parseDocument, stringify } from "yaml";
import { addNodeRole, AwsAuthFormatError, hasRole, NODE_USERNAME, removeRole } from "./aws-auth.ts";

const NODE = "arn:aws:iam::133129065110:role/KarpenterNodeRole-eksworkshop";
const EKSCTL = `- groups:
  - system:bootstrappers
  - system:nodes
  rolearn: arn:aws:iam::133129065110:role/eksctl-eksworkshop-nodegroup-NodeInstanceRole
  username: system:node:{{EC2PrivateDNSName}}
`;

describe("addNodeRole", () => {
  it("appends the lab's entry, keeping {{EC2PrivateDNSName}} literal and the existing entry byte for byte", () => {
    const r = addNodeRole({ mapRoles: EKSCTL, mapUsers: "[]\n" }, NODE);
    expect(r.changed).toBe(true);
    expect(r.data.mapUsers).toBe("[]\n");
    expect(r.data.mapRoles!.startsWith(EKSCTL)).toBe(true);
    expect(parse(r.data.mapRoles!)).toEqual([
      ...parse(EKSCTL),
      { rolearn: NODE, username: "system:node:{{EC2PrivateDNSName}}", groups: ["system:bootstrappers", "system:nodes"] },
    ]);
    expect(r.data.mapRoles!).toContain("username: system:node:{{EC2PrivateDNSName}}");
  });

  it("is a no-op when the role is already mapped", () => {
    const once = addNodeRole({ mapRoles: EKSCTL }, NODE).data;
    const twice = addNodeRole(once, NODE);
    expect(twice.changed).toBe(false);
    expect(twice.data).toBe(once);
  });

  it("leaves a differing existing entry alone and says why", () => {
    const r = addNodeRole({ mapRoles: `- rolearn: ${NODE}\n  username: someone\n  groups: [system:masters]\n` }, NODE);
    expect(r.changed).toBe(false);
    expect(r.warning).toBe(
      `aws-auth already maps ${NODE} as username 'someone' groups [system:masters]; left unchanged (nodes need '${NODE_USERNAME}' in system:bootstrappers, system:nodes)`,
    );
  });

  it("creates mapRoles when the ConfigMap has none, and keeps comments and flow style of others", () => {
    expect(parse(addNodeRole(undefined, NODE).data.mapRoles!)).toEqual([{ rolearn: NODE, username: NODE_USERNAME, groups: ["system:bootstrappers", "system:nodes"] }]);
    const flow = addNodeRole({ mapRoles: "# keep me\n[{rolearn: a, username: b, groups: [c]}]\n" }, NODE).data.mapRoles!;
    expect(flow).toContain("# keep me");
    expect(parse(flow)).toHaveLength(2);
  });

  it("refuses mapRoles it cannot read instead of overwriting it", () => {
    expect(() => addNodeRole({ mapRoles: "- rolearn: [unclosed" }, NODE)).toThrow(AwsAuthFormatError);
    // a merge key whose value is not a map: Go's reader refuses the whole document ("map merge requires map ...")
    for (const mapRoles of ["- rolearn: a\n  extra:\n    ' ':\n      <<: 0\n", "- rolearn: a\n  <<: [1]\n"]) {
      expect(() => addNodeRole({ mapRoles }, NODE)).toThrow(/cannot be read as aws-iam-authenticator reads it .*nothing was changed/);
    }
    expect(() => addNodeRole({ mapRoles: "rolearn: x\n" }, NODE)).toThrow(
      "ConfigMap kube-system/aws-auth: data.mapRoles must be a YAML list of {rolearn, username, groups}",
    );
  });
});

describe("removeRole", () => {
  it("removes only the role's entries", () => {
    const added = addNodeRole({ mapRoles: EKSCTL, mapUsers: "- userarn: u\n" }, NODE).data;
    const r = removeRole(added, NODE);
    expect(r.changed).toBe(true);
    expect(parse(r.data.mapRoles!)).toEqual(parse(EKSCTL));
    expect(r.data.mapUsers).toBe("- userarn: u\n");
    expect(hasRole(r.data, NODE)).toBe(false);
    expect(removeRole(r.data, NODE).changed).toBe(false);
  });
});

describe("duplicate keys", () => {
  const MASTERS = "arn:aws:iam::133129065110:role/Admin";
  // Go's reader keeps the last rolearn (Admin -> system:masters); a first-wins reader would see the node role
  const ambiguous = `- rolearn: ${NODE}\n  rolearn: ${MASTERS}\n  username: admin\n  groups: [system:masters]\n`;

  it("refuse every edit of mapRoles and change nothing", () => {
    const data = { mapRoles: ambiguous };
    const message = "ConfigMap kube-system/aws-auth data.mapRoles line 2: an entry has the same key twice";
    expect(() => removeRole(data, NODE)).toThrow(expect.objectContaining({ name: "AwsAuthFormatError", message: expect.stringContaining(message) }));
    expect(() => addNodeRole(data, NODE)).toThrow(expect.objectContaining({ message: expect.stringContaining(message) }));
    expect(() => hasRole(data, NODE)).toThrow(AwsAuthFormatError);
    expect(data).toEqual({ mapRoles: ambiguous });
  });

  it("in mapUsers too", () => {
    expect(() => addNodeRole({ mapRoles: EKSCTL, mapUsers: "- userarn: a\n  userarn: b\n  username: u\n" }, NODE)).toThrow(
      expect.objectContaining({ name: "AwsAuthFormatError", message: expect.stringContaining("ConfigMap kube-system/aws-auth data.mapUsers line 2: an entry has the same key twice") }),
    );
  });
});

describe("anchors and aliases", () => {
  const OTHER = "arn:aws:iam::133129065110:role/other";
  const anchored = `- rolearn: ${NODE}\n  username: ${NODE_USERNAME}\n  groups: &nodegroups\n    - system:bootstrappers\n    - system:nodes\n- rolearn: ${OTHER}\n  username: other\n  groups: *nodegroups\n`;

  it("removing the entry that defines an anchor keeps the aliased value in the entries that stay", () => {
    const r = removeRole({ mapRoles: anchored }, NODE);
    expect(r.changed).toBe(true);
    expect(parse(r.data.mapRoles!)).toEqual([{ rolearn: OTHER, username: "other", groups: ["system:bootstrappers", "system:nodes"] }]);
    expect(r.data.mapRoles).not.toContain("*nodegroups");
    // a re-run reads it (it used to fail with `Unresolved alias` on every re-run) and has nothing to do
    expect(removeRole(r.data, NODE).changed).toBe(false);
    expect(hasRole(r.data, OTHER)).toBe(true);
  });

  it("an entry that is an alias of the removed one, or merges it, is read as Go reads it", () => {
    const merged = `- &node\n  rolearn: ${NODE}\n  username: ${NODE_USERNAME}\n  groups: [system:nodes]\n- <<: *node\n  username: merged\n`;
    // the merged entry inherits rolearn: it maps the node role too, and both are removed
    expect(hasRole({ mapRoles: `- <<: {rolearn: ${NODE}}\n  username: u\n` }, NODE)).toBe(true);
    const r = removeRole({ mapRoles: merged }, NODE);
    expect(parse(r.data.mapRoles!, { merge: true })).toEqual([]);
    // an alias that stays and points into a removed entry keeps its value
    const kept = `- rolearn: ${NODE}\n  username: &who ${NODE_USERNAME}\n- rolearn: ${OTHER}\n  username: *who\n`;
    expect(parse(removeRole({ mapRoles: kept }, NODE).data.mapRoles!)).toEqual([{ rolearn: OTHER, username: NODE_USERNAME }]);
  });
});

// Random aws-auth documents: entries with arbitrary extra fields and values, written in random YAML styles.
const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom("{{EC2PrivateDNSName}}", "system:node:{{SessionName}}", "'quoted'", "a: b", "- x", "#hash", "@at"));
// "<<" is a merge key to Go's reader: `<<: <scalar>` is a document it refuses (tested above), not an entry to keep.
const notMerge = (k: string) => k !== "<<";
const extra = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }).filter((k) => notMerge(k) && !["rolearn", "username", "groups", "userarn"].includes(k)),
  fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }).filter(notMerge), scalar, { maxKeys: 2 })),
  { maxKeys: 3 },
);
const arn = fc.oneof(
  fc.stringMatching(/^arn:aws:iam::\d{12}:role\/[A-Za-z0-9+=,.@_-]{1,20}$/),
  fc.constant(NODE.replace("KarpenterNodeRole", "KarpenterNodeRole2")),
  fc.string(),
);
const roleEntry = fc.record({ rolearn: arn, username: fc.oneof(fc.string(), fc.constant(NODE_USERNAME)), groups: fc.array(fc.string(), { maxLength: 3 }), extra }, { requiredKeys: ["rolearn"] });
const userEntry = fc.record({ userarn: fc.string(), username: fc.string(), groups: fc.array(fc.string(), { maxLength: 3 }), extra });
const flatten = ({ extra: e, ...rest }: { extra?: Record<string, unknown> } & Record<string, unknown>) => ({ ...(e ?? {}), ...rest });
const style = fc.record({ flow: fc.boolean(), indentSeq: fc.boolean(), quote: fc.constantFrom("PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE") as fc.Arbitrary<"PLAIN" | "QUOTE_DOUBLE" | "QUOTE_SINGLE"> });
const write = (v: unknown, s: { flow: boolean; indentSeq: boolean; quote: "PLAIN" | "QUOTE_DOUBLE" | "QUOTE_SINGLE" }) =>
  stringify(v, { collectionStyle: s.flow ? "flow" : "block", indentSeq: s.indentSeq, defaultStringType: s.quote, lineWidth: 0 });

describe("addNodeRole property", () => {
  it("keeps every existing mapRoles entry and field, mapUsers and every other key, over 3000 random documents", () => {
    fc.assert(
      fc.property(
        fc.array(roleEntry, { maxLength: 6 }),
        fc.array(userEntry, { maxLength: 4 }),
        style,
        style,
        fc.dictionary(fc.constantFrom("mapAccounts", "other"), fc.string(), { maxKeys: 2 }),
        (roles, users, roleStyle, userStyle, others) => {
          const existing = roles.map(flatten).filter((r) => r.rolearn !== NODE);
          const data = { ...others, mapRoles: write(existing, roleStyle), mapUsers: write(users.map(flatten), userStyle) };
          // Some generated styles are YAML the yaml library writes but cannot read back; EKS would reject those too.
          fc.pre(parseDocument(data.mapRoles).errors.length === 0);
          const r = addNodeRole(data, NODE);
          expect(r.changed).toBe(true);
          expect(r.data.mapUsers).toBe(data.mapUsers);
          for (const k of Object.keys(others)) expect(r.data[k]).toBe(data[k as keyof typeof data]);
          const after = parse(r.data.mapRoles!) as unknown[];
          expect(after.slice(0, existing.length)).toEqual(parse(data.mapRoles));
          expect(after[existing.length]).toEqual({ rolearn: NODE, username: NODE_USERNAME, groups: ["system:bootstrappers", "system:nodes"] });
          expect(after).toHaveLength(existing.length + 1);
        },
      ),
      { numRuns: 3000 },
    );
  }, 180_000);

  it("is idempotent, and removal gives the original entries back, over 500 random documents", () => {
    fc.assert(
      fc.property(fc.array(roleEntry, { maxLength: 6 }), style, (roles, roleStyle) => {
        const existing = roles.map(flatten).filter((r) => r.rolearn !== NODE);
        const mapRoles = write(existing, roleStyle);
        fc.pre(parseDocument(mapRoles).errors.length === 0);
        const added = addNodeRole({ mapRoles }, NODE).data;
        expect(addNodeRole(added, NODE).changed).toBe(false);
        expect(parse(removeRole(added, NODE).data.mapRoles!)).toEqual(parse(mapRoles));
      }),
      { numRuns: 500 },
    );
  }, 60_000);
});
