// The rendered diff as text (terminal), Markdown (one pull-request comment, cut to GitHub's limit) or JSON.
import { createColors } from "picocolors";
// validate's sanitizer: one escaping of user-controlled text for every report of this CLI
import { safeMarkdown, safeText, shorten } from "@eks-gitops/validate/sanitize";
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

/** Kind, namespace and name come from the rendered YAML: user-controlled, so escaped (`\n`, `\x1b`, `\u202e`). */
function title(c: ObjectChange): string {
  return safeText(`${c.kind} ${c.namespace ? `${c.namespace}/` : ""}${c.name}`);
}

/** A user-controlled string for the Markdown comment: shortened, then escaped (see safeMarkdown). */
const md = (s: string, max = 120) => safeMarkdown(shorten(s, max));

/** A user-controlled string inside a Markdown code span (nothing is HTML or Markdown there; a backtick would end it). */
const codeSpan = (s: string) => safeText(shorten(s)).replace(/`/g, "'");

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
  const lines = [`Rendered diff: ${safeText(labels.base)} -> ${safeText(labels.head)}`];
  if (d.changes.length === 0) return `${lines[0]}\nNo changes to rendered output.\n`;
  let heading: string | undefined;
  const c = createColors(options.color === true);
  const markerColour: Record<ChangeType, Paint> = { added: c.green, changed: c.yellow, removed: c.red };
  for (const s of sections(d)) {
    if (s.heading !== heading) lines.push("", safeText(s.heading));
    heading = s.heading;
    if (s.sub) lines.push(`  ${safeText(s.sub)}`);
    const indent = s.sub ? "    " : "  ";
    for (const ch of s.changes) {
      const where = isIamDocument(ch) ? `  (${safeText(`${ch.cluster}/${ch.component}`)})` : touchesIamRole(ch) ? "  (changes an IAM role: IRSA)" : "";
      lines.push(markerColour[ch.change](`${indent}${MARKERS[ch.change]} ${title(ch)}${where}`));
      if (ch.change === "changed" || ch.iam) for (const h of ch.hunks) lines.push(hunkColour(h, c)(`${indent}    ${safeText(h)}`));
    }
  }
  if (options.extra) lines.push("", options.extra.trimEnd());
  lines.push("", "Per kind:", ...[...d.kinds].map(([k, n]) => `  ${safeText(k).padEnd(28)} +${n.added} ~${n.changed} -${n.removed}`));
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

/**
 * One pull-request comment: summary and per-kind table first (never cut), then each object with its
 * diff in a collapsed block. Past `limit` characters whole objects are left out and a notice says how
 * many, pointing at the full diff artifact.
 */
export function formatMarkdown(d: RenderedDiff, labels: DiffLabels, options: MarkdownOptions = {}): string {
  const limit = options.limit ?? GITHUB_COMMENT_LIMIT;
  const head = [COMMENT_MARKER, "## Rendered diff", "", `<code>${md(labels.base)}</code> → <code>${md(labels.head)}</code>`, ""];
  if (d.changes.length === 0) return `${[...head, "No changes to rendered output."].join("\n")}\n`;
  head.push(`**${summaryLine(d)}**`, "", "| kind | added | changed | removed |", "|---|--:|--:|--:|");
  let out = `${head.join("\n")}\n`;
  out += kindTable(d, limit - out.length - notice(d.changes.length).length - (options.reserve ?? 0));

  const blocks: string[] = [];
  let lastHeading: string | undefined;
  for (const s of sections(d)) {
    const newHeading = s.heading !== lastHeading;
    lastHeading = s.heading;
    s.changes.forEach((c, i) => {
      const heading = i > 0 ? "" : `${newHeading ? `\n### ${md(s.heading)}\n` : ""}${s.sub ? `\n#### \`${codeSpan(s.sub)}\`\n` : ""}`;
      const where = isIamDocument(c) ? ` <sub>${md(c.cluster)} · ${md(c.component)}</sub>` : touchesIamRole(c) ? " <sub>⚠️ changes an IAM role (IRSA)</sub>" : "";
      // inside a fence nothing is Markdown or HTML; control and bidi characters are still escaped
      const body = c.hunks.map(safeText).join("\n");
      const f = fence(body);
      blocks.push(
        `${heading}\n<details><summary><code>${MARKERS[c.change]}</code> ${md(c.kind)} <code>${md(`${c.namespace ? `${c.namespace}/` : ""}${c.name}`)}</code>${where}</summary>\n\n${f}diff\n${body}\n${f}\n\n</details>\n`,
      );
    });
  }

  function notice(shown: number): string {
    const where = options.fullDiffUrl
      ? `the \`${options.artifactName ?? "rendered-diff"}\` artifact of [this workflow run](${options.fullDiffUrl})`
      : `the \`${options.artifactName ?? "rendered-diff"}\` artifact of this workflow run (or run \`pnpm diff\` locally)`;
    return `\n> [!WARNING]\n> Cut at ${limit.toLocaleString("en-US")} characters to fit one GitHub comment: ${shown} of ${d.changes.length} changed objects shown. The full diff is in ${where}.\n`;
  }
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

/** The per-kind rows that fit in `room` characters, then `… and N more kinds` (that row always fits: room is reserved for it). */
function kindTable(d: RenderedDiff, room: number): string {
  const more = (n: number) => `| … and ${n} more ${n === 1 ? "kind" : "kinds"} | | | |\n`;
  let out = "";
  let shown = 0;
  for (const [k, n] of d.kinds) {
    const row = `| ${md(k, 60)} | ${n.added} | ${n.changed} | ${n.removed} |\n`;
    const rest = d.kinds.size - shown - 1;
    if (out.length + row.length + (rest > 0 ? more(rest).length : 0) > room) break;
    out += row;
    shown++;
  }
  return shown < d.kinds.size ? out + more(d.kinds.size - shown) : out;
}

/** For machines: labels, totals, per-kind counts and every change with its hunks. */
export function formatJson(d: RenderedDiff, labels: DiffLabels, extra: { readonly drift?: unknown } = {}): string {
  return `${JSON.stringify(
    { base: labels.base, head: labels.head, totals: d.totals, kinds: Object.fromEntries(d.kinds), clusters: d.clusters, changes: d.changes, ...extra },
    null,
    2,
  )}\n`;
}
