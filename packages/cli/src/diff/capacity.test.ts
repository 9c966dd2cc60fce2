// The pull-request comment (`eks-gitops diff --output markdown`) on a temporary git repository: a pull request that
// bumps the AMI alias and raises nginx-deployment's maxReplicas from 12 to 40 shows the node replacement it causes and
// the nodes it costs; the comment is parsed as GitHub-flavoured Markdown to check its structure.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { checkCluster } from "@eks-gitops/config";
import { Lexer, type Token, type Tokens } from "marked";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import eksworkshop from "../../../../clusters/eksworkshop/cluster.ts";
import { diff } from "../commands/diff.ts";
import { renderCapacitySection } from "./capacity.ts";
import { renderCluster } from "../render.ts";

vi.setConfig({ testTimeout: 120_000 });

const ROOT = resolve(import.meta.dirname, "../../../..");
const FILE = "clusters/eksworkshop/cluster.ts";
let repo: string;
const env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env }).toString().trim();
const write = (path: string, content: string) => {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
};

/** Writes the overlay (as its TypeScript text) and its render, with nginx's maxReplicas set to `max` and the AMI alias. */
function writeOverlay(max: number, alias = "al2023@latest"): void {
  const input = structuredClone(eksworkshop) as Record<string, any>;
  input.workloads[0].autoscaling.maxReplicas = max;
  input.nodeClasses[0].amiSelectorTerms[0].alias = alias;
  const source = execFileSync("cat", [join(ROOT, FILE)]).toString().replace("maxReplicas: 12,", `maxReplicas: ${max},`).replace("al2023@latest", alias);
  write(FILE, source);
  rmSync(join(repo, "clusters/eksworkshop/rendered"), { recursive: true, force: true });
  for (const [path, content] of renderCluster(checkCluster(input, FILE))) write(`clusters/eksworkshop/rendered/${path}`, content);
}

async function markdown(head?: string): Promise<string> {
  let text = "";
  await diff({ root: repo, base: "main", ...(head ? { head } : {}), output: "markdown", out: (t) => (text += t) });
  return text;
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "eks-gitops-diff-capacity-"));
  git("init", "-q", "-b", "main");
  write("pnpm-workspace.yaml", "packages: []\n");
  write(".gitignore", "node_modules\n");
  write("clusters/package.json", '{ "type": "module" }\n');
  symlinkSync(join(ROOT, "clusters/node_modules"), join(repo, "clusters/node_modules"), "dir");
  cpSync(join(ROOT, "clusters/eksworkshop/capacity"), join(repo, "clusters/eksworkshop/capacity"), { recursive: true });
  writeOverlay(12);
  git("add", "-A");
  git("commit", "-qm", "base");
  git("checkout", "-qb", "feature");
  writeOverlay(40, "al2023@v20251101");
  git("add", "-A");
  git("commit", "-qm", "AMI alias pinned, maxReplicas 12 -> 40");
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe("Capacity at HPA max", () => {
  let md: string;
  beforeAll(async () => {
    md = await markdown("feature");
  });

  it("leads with node replacement, then the rendered diff, then capacity, one part per cluster", () => {
    expect(md.indexOf("## Node replacement (drift)")).toBe(md.indexOf("<!-- eks-gitops:rendered-diff -->\n") + 35);
    expect(md.indexOf("## Rendered diff")).toBeGreaterThan(md.indexOf("## Node replacement (drift)"));
    expect(md).toContain("\n## Capacity at HPA max\n\n### eksworkshop\n");
    expect(md.indexOf("## Capacity at HPA max")).toBeGreaterThan(md.indexOf("autoscaling/v2"));
  });

  it("says the AMI alias bump replaces the NodePool's nodes once resolved, at the budget's pace", () => {
    expect(md).toContain(
      "| eksworkshop | EC2NodeClass `default` | replaces nodes once resolved | AMIDrift: spec.amiSelectorTerms al2023@latest -> al2023@v20251101: drifts once Karpenter resolves the new AMI",
    );
    expect(md).toMatch(/- EC2NodeClass `default`: `karpenter.k8s.aws\/ec2nodeclass-hash \(v5\): \d+ \(unchanged\)`/);
    expect(md).toContain(
      "| eksworkshop | `default` | 0 NodeClaim(s) at HPA minimum (0 at a time), 0 NodeClaim(s) at current replicas (0 at a time), 1 NodeClaim(s) at HPA maximum (1 at a time) | at most 10% of the NodePool's NodeClaims at a time |",
    );
  });

  it("shows what maxReplicas 12 -> 40 costs in cores and GiB: a much bigger NodeClaim and less NodePool headroom", () => {
    expect(md).toContain("| CPU requested on NodeClaims (cores) | 6.45 | 62.45 | +56 cores |\n");
    expect(md).toContain("| memory requested on NodeClaims (GiB) | 11.3 | 115.6 | +104.3 GiB |\n");
    expect(md).toContain("| `default` | cpu | 1000 | 992 | 936 (-56) |\n");
    expect(md).toMatch(/\| `default` \| memory \| 1000Gi \| [\d.]+Gi \| [\d.]+Gi \(-[\d.]+Gi\) \|\n/);
    expect(md).toContain("| default-1 | 62.45 | 115.6 | 35 | 137: c5.18xlarge, c5.24xlarge, c5.metal, c5a.24xlarge, c5ad.24xlarge and 132 other(s) |\n");
    expect(md).toContain("| pods that stay Pending | 0 | 0 | 0 |\n");
  });

  it("prices base and head at HPA min and max, with the change and every price's source and date", () => {
    // HPA min: the 3 t3.2xlarge node-group nodes only (0.3328 $/h each in Karpenter's table), no change
    expect(md).toContain("| per hour at HPA min | $1.00 | $1.00 | $0.00 |\n| per month at HPA min | $728.83 | $728.83 | $0.00 |\n");
    // HPA max: base adds a c6a.2xlarge (0.306 $/h), head a much bigger NodeClaim
    expect(md).toMatch(/\| per month at HPA max \| \$952\.21 \| \$(\d+\.\d\d) \| \+\$\d+\.\d\d \|\n/);
    expect(md).toContain("Prices: Karpenter v1.14.1 built-in on-demand table (us-east-1), used for ap-southeast-1 as Karpenter does before it reaches the Pricing API (2026-07-06).");
  });

  it("is well-formed GitHub-flavoured Markdown: headings in order, tables parse, <details> balanced", () => {
    const tokens = new Lexer({ gfm: true }).lex(md);
    const flat: Token[] = [];
    const walk = (ts: readonly Token[]) => {
      for (const t of ts) {
        flat.push(t);
        if ("tokens" in t && Array.isArray(t.tokens)) walk(t.tokens);
      }
    };
    walk(tokens);
    const headings = flat.filter((t): t is Tokens.Heading => t.type === "heading");
    expect(headings.map((h) => `${"#".repeat(h.depth)} ${h.text}`)).toEqual([
      "## Node replacement (drift)",
      "### Pace of replacement (disruption budgets)",
      "## Rendered diff",
      "### eksworkshop",
      "#### `karpenter-nodepools`",
      "#### `workload-nlb-app-karpenter`",
      "## Capacity at HPA max",
      "### eksworkshop",
    ]);
    for (const [i, h] of headings.entries()) if (i > 0) expect(h.depth).toBeLessThanOrEqual(headings[i - 1]!.depth + 1);
    const tables = flat.filter((t): t is Tokens.Table => t.type === "table");
    expect(tables.length).toBeGreaterThanOrEqual(6);
    for (const t of tables) for (const row of t.rows) expect(row.length).toBe(t.header.length);
    // every table line of the source became a table row (a stray `|` would end a table early)
    const tableLines = md.split("\n").filter((l) => l.startsWith("|")).length;
    expect(tables.reduce((n, t) => n + 2 + t.rows.length, 0)).toBe(tableLines);
    const html = flat.filter((t) => t.type === "html").map((t) => t.raw).join("");
    expect((html.match(/<details>/g) ?? []).length).toBe(2);
    expect((html.match(/<\/details>/g) ?? []).length).toBe(2);
  });

  // The README shows this comment as its sample: each ````markdown block there is a piece of what diff wrote, so
  // the sample cannot drift from the command (hash values and commit ids aside, which differ per repository).
  it("is the README's sample of a PR comment, block by block", async () => {
    const { readFileSync } = await import("node:fs");
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const blocks = [...readme.matchAll(/\n {2}````markdown\n([\s\S]*?)\n {2}````\n/g)].map((m) => (m[1] as string).replace(/^ {2}/gm, ""));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const text = blocks.join("\n");
    for (const heading of ["## Node replacement (drift)", "### Pace of replacement (disruption budgets)", "### eksworkshop", "| cost (USD) | base | head | change |", "Prices: "]) expect(text).toContain(heading);
    const hash = (t: string) => t.replace(/\(v5\): \d+/g, "(v5): HASH");
    for (const block of blocks) {
      // a block is a run of lines of the comment; blank lines separate its paragraphs there too
      for (const part of hash(block).split(/\n\n/)) expect(hash(md)).toContain(part);
    }
  });

  it("draws the head's replica sweep, 3 to 40, as a mermaid chart", () => {
    expect(md).toContain(
      "```mermaid\nxychart-beta\n    title \"nlb-app-karpenter/nginx-deployment: nodes (bars); pods Pending until Karpenter's nodes join (line)\"\n",
    );
    expect(md).toContain("Bars: nodes (node-group nodes + Karpenter's NodeClaims). Line: pods Pending until Karpenter's nodes join, then Running.");
    expect(md).toContain(`    x-axis "replicas" [${Array.from({ length: 38 }, (_, i) => i + 3).join(", ")}]\n`);
  });

  it("the working tree as head, and no change: base and head agree", async () => {
    git("checkout", "-q", "main");
    try {
      const same = await markdown();
      expect(same).toContain("No changes to rendered output.");
      expect(same).toContain("| NodeClaims Karpenter would add | 1 | 1 | 0 |\n");
      expect(same).toContain("| CPU requested on NodeClaims (cores) | 6.45 | 6.45 | 0 cores |\n");
    } finally {
      git("checkout", "-q", "feature");
    }
  });

  it("a side whose overlay cannot be loaded says why instead of failing the comment", async () => {
    git("checkout", "-qb", "broken", "main");
    try {
      write(FILE, execFileSync("cat", [join(ROOT, FILE)]).toString().replace("count: 3", "count: -3"));
      git("commit", "-qam", "bad count");
      const broken = await markdown("broken");
      expect(broken.slice(broken.indexOf("## Capacity"))).toBe(
        "## Capacity at HPA max\n\n### eksworkshop\n\n> head: not simulated: clusters/eksworkshop/cluster.ts:86:72: nodeGroups[0].count: must not be negative; got -3\n\n",
      );
    } finally {
      git("checkout", "-q", "feature");
    }
  });

  it("a cluster without a snapshot on either side says so once", async () => {
    git("checkout", "-qb", "no-snapshot", "feature");
    try {
      git("rm", "-rq", "clusters/eksworkshop/capacity");
      git("commit", "-qm", "no snapshot");
      let md = "";
      await diff({ root: repo, base: "no-snapshot", head: "no-snapshot", output: "markdown", out: (t) => (md += t) });
      expect(md.slice(md.indexOf("## Capacity"))).toBe(
        "## Capacity at HPA max\n\n### eksworkshop\n\n> base and head: not simulated: no instance-type snapshot clusters/eksworkshop/capacity/instance-types.ap-southeast-1.json\n\n",
      );
    } finally {
      git("checkout", "-q", "feature");
    }
  });

  it("text output has no capacity section, and markdown can leave it out", async () => {
    let text = "";
    await diff({ root: repo, base: "main", head: "feature", output: "text", out: (t) => (text += t) });
    expect(text).not.toContain("Capacity");
    let without = "";
    await diff({ root: repo, base: "main", head: "feature", output: "markdown", capacity: false, out: (t) => (without += t) });
    expect(without).not.toContain("Capacity at HPA max");
  });

  it("leaves no temporary overlay behind", () => {
    expect(readdirSync(join(repo, "clusters")).sort()).toEqual(["eksworkshop", "node_modules", "package.json"]);
  });
});

describe("renderCapacitySection", () => {
  const section = { clusters: ["#### a\n\nA\n", "#### b\n\nB\n", "#### c\n\nC\n"] };

  it("keeps whole clusters within the budget and says how many were left out", () => {
    const all = renderCapacitySection(section, Number.POSITIVE_INFINITY);
    expect(all).toBe("\n## Capacity at HPA max\n\n#### a\n\nA\n\n#### b\n\nB\n\n#### c\n\nC\n\n");
    const cut = renderCapacitySection(section, 180);
    expect(cut).toBe(
      "\n## Capacity at HPA max\n\n#### a\n\nA\n\n> [!NOTE]\n> 2 of 3 clusters left out to fit one comment: see the full diff artifact, or run `pnpm simulate --at max --output markdown`.\n\n",
    );
    expect(cut.length).toBeLessThanOrEqual(180);
    expect(renderCapacitySection({ clusters: [] }, 100)).toBe("");
  });
});
