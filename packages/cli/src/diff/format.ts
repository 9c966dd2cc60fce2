// The rendered diff as text (terminal), Markdown (one pull-request comment, cut to GitHub's limit) or JSON.
import { createColors } from "picocolors";
import { COMPONENTS } from "@eks-gitops/config";
import type { ChangeType, ObjectChange, RenderedDiff } from "./changes.ts";

/** GitHub refuses issue and pull-request comments longer than this many characters. */
export const GITHUB_COMMENT_LIMIT = 65_536;
/** First line of the Markdown: how the workflow finds its own comment to update it in place. */
export const COMMENT_MARKER = "<!-- eks-gitops:rendered-diff -->";

export const MARKERS: Readonly<Record<ChangeType, string>> = { added: "[+]", changed: "[~]", removed: "[-]" };

export interface DiffLabels {
  /** e.g. `merge base with main (1a2b3c4)`. */
  readonly base: string;
  /** e.g. `working tree`. */
  readonly head: string;
}

function summaryLine(d: RenderedDiff): string {
  const { added, changed, removed } = d.totals;
  const n = d.changes.length;
  return `${added} added, ${changed} changed, ${removed} removed (${n} ${n === 1 ? "object" : "objects"} in ${d.clusters.length} ${d.clusters.length === 1 ? "cluster" : "clusters"})`;
}

function title(c: ObjectChange): string {
  return `${c.kind} ${c.namespace ? `${c.namespace}/` : ""}${c.name}`;
}

/** An IAM document (the cluster's `iam` folder): listed under "IAM changes". */
const isIamDocument = (c: ObjectChange) => c.iam && c.component === COMPONENTS.iam;
/** A Kubernetes object that names an IAM role (an IRSA annotation): listed under its component, with a call-out. */
const touchesIamRole = (c: ObjectChange) => c.iam && c.component !== COMPONENTS.iam;

/** Sections in output order: IAM documents first, then one per cluster and component. */
function sections(d: RenderedDiff): { heading: string; sub: string | undefined; changes: ObjectChange[] }[] {
  const out: { heading: string; sub: string | undefined; changes: ObjectChange[] }[] = [];
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const ordered = [...d.changes].sort(
    (a, b) => Number(isIamDocument(b)) - Number(isIamDocument(a)) || cmp(a.cluster, b.cluster) || cmp(a.component, b.component) || cmp(a.path, b.path),
  );
  for (const c of ordered) {
    const heading = isIamDocument(c) ? "IAM changes" : c.cluster;
    const sub = isIamDocument(c) ? undefined : c.component;
    const last = out.at(-1);
    if (last && last.heading === heading && last.sub === sub) last.changes.push(c);
    else out.push({ heading, sub, changes: [c] });
  }
  return out;
}

type Colors = ReturnType<typeof createColors>;
type Paint = (s: string) => string;
const plain: Paint = (s) => s;

/** Colour of a hunk line: by its first character, never by what the YAML line itself starts with. */
function hunkColour(h: string, c: Colors): Paint {
  return h[0] === "+" ? c.green : h[0] === "-" ? c.red : h.startsWith("@@") ? c.cyan : plain;
}

/**
 * For a terminal: markers, IAM first, hunks of changed objects (and of every IAM change), per-kind
 * counts, a summary line. `color` only for a TTY.
 */
export function formatText(d: RenderedDiff, labels: DiffLabels, options: { readonly color?: boolean; readonly extra?: string } = {}): string {
  const lines = [`Rendered diff: ${labels.base} -> ${labels.head}`];
  if (d.changes.length === 0) return `${lines[0]}\nNo changes to rendered output.\n`;
  let heading: string | undefined;
  const c = createColors(options.color === true);
  const markerColour: Record<ChangeType, Paint> = { added: c.green, changed: c.yellow, removed: c.red };
  for (const s of sections(d)) {
    if (s.heading !== heading) lines.push("", s.heading);
    heading = s.heading;
    if (s.sub) lines.push(`  ${s.sub}`);
    const indent = s.sub ? "    " : "  ";
    for (const ch of s.changes) {
      const where = isIamDocument(ch) ? `  (${ch.cluster}/${ch.component})` : touchesIamRole(ch) ? "  (changes an IAM role: IRSA)" : "";
      lines.push(markerColour[ch.change](`${indent}${MARKERS[ch.change]} ${title(ch)}${where}`));
      if (ch.change === "changed" || ch.iam) for (const h of ch.hunks) lines.push(hunkColour(h, c)(`${indent}    ${h}`));
    }
  }
  if (options.extra) lines.push("", options.extra.trimEnd());
  lines.push("", "Per kind:", ...[...d.kinds].map(([k, n]) => `  ${k.padEnd(28)} +${n.added} ~${n.changed} -${n.removed}`));
  lines.push("", `Summary: ${summaryLine(d)}`);
  return `${lines.join("\n")}\n`;
}

export interface MarkdownOptions {
  /** Cut the comment at this many characters. @default GITHUB_COMMENT_LIMIT */
  readonly limit?: number;
  /** Characters of `limit` that other sections of the same comment take (drift, capacity). @default 0 */
  readonly reserve?: number;
  /** Where the full diff is (the workflow run holding the artifact). @default no link */
  readonly fullDiffUrl?: string;
  /** Name of the artifact holding the full diff. @default "rendered-diff" */
  readonly artifactName?: string;
}

/** A fence longer than any backtick run in the text, so a diff line can never close it. */
function fence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * One pull-request comment: summary and per-kind table first (never cut), then each object with its
 * diff in a collapsed block. Past `limit` characters whole objects are left out and a notice says how
 * many, pointing at the full diff artifact.
 */
export function formatMarkdown(d: RenderedDiff, labels: DiffLabels, options: MarkdownOptions = {}): string {
  const limit = options.limit ?? GITHUB_COMMENT_LIMIT;
  const head = [COMMENT_MARKER, "## Rendered diff", "", `\`${labels.base}\` → \`${labels.head}\``, ""];
  if (d.changes.length === 0) return `${[...head, "No changes to rendered output."].join("\n")}\n`;
  head.push(`**${summaryLine(d)}**`, "", "| kind | added | changed | removed |", "|---|--:|--:|--:|");
  for (const [k, n] of d.kinds) head.push(`| ${escapeHtml(k)} | ${n.added} | ${n.changed} | ${n.removed} |`);
  let out = `${head.join("\n")}\n`;

  const blocks: string[] = [];
  let lastHeading: string | undefined;
  for (const s of sections(d)) {
    const newHeading = s.heading !== lastHeading;
    lastHeading = s.heading;
    s.changes.forEach((c, i) => {
      const heading = i > 0 ? "" : `${newHeading ? `\n### ${escapeHtml(s.heading)}\n` : ""}${s.sub ? `\n#### \`${s.sub}\`\n` : ""}`;
      const where = isIamDocument(c) ? ` <sub>${escapeHtml(c.cluster)} · ${escapeHtml(c.component)}</sub>` : touchesIamRole(c) ? " <sub>⚠️ changes an IAM role (IRSA)</sub>" : "";
      const body = c.hunks.join("\n");
      const f = fence(body);
      blocks.push(
        `${heading}\n<details><summary><code>${MARKERS[c.change]}</code> ${escapeHtml(c.kind)} <code>${escapeHtml(c.namespace ? `${c.namespace}/` : "")}${escapeHtml(c.name)}</code>${where}</summary>\n\n${f}diff\n${body}\n${f}\n\n</details>\n`,
      );
    });
  }

  const notice = (shown: number) => {
    const where = options.fullDiffUrl
      ? `the \`${options.artifactName ?? "rendered-diff"}\` artifact of [this workflow run](${options.fullDiffUrl})`
      : `the \`${options.artifactName ?? "rendered-diff"}\` artifact of this workflow run (or run \`pnpm diff\` locally)`;
    return `\n> [!WARNING]\n> Cut at ${limit.toLocaleString("en-US")} characters to fit one GitHub comment: ${shown} of ${d.changes.length} changed objects shown. The full diff is in ${where}.\n`;
  };
  // Reserve room for the longest possible notice and the comment's other sections before deciding how many blocks fit.
  const reserve = notice(d.changes.length).length + (options.reserve ?? 0);
  let shown = 0;
  for (const b of blocks) {
    if (out.length + b.length + reserve > limit) break;
    out += b;
    shown++;
  }
  if (shown < blocks.length) out += notice(shown);
  return out;
}

/** For machines: labels, totals, per-kind counts and every change with its hunks. */
export function formatJson(d: RenderedDiff, labels: DiffLabels, extra: { readonly drift?: unknown } = {}): string {
  return `${JSON.stringify(
    { base: labels.base, head: labels.head, totals: d.totals, kinds: Object.fromEntries(d.kinds), clusters: d.clusters, changes: d.changes, ...extra },
    null,
    2,
  )}\n`;
}
