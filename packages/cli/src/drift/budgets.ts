// NodePool disruption budgets in words: how fast Karpenter may replace drifted NodeClaims. After
// sigs.k8s.io/karpenter@v1.14.1 pkg/apis/v1/nodepool.go (Budget, GetAllowedDisruptionsByReason: percentages round up,
// the smallest active budget wins, a budget without schedule is always active, reasons empty = every reason).

export interface BudgetInput {
  readonly nodes?: string;
  readonly reasons?: readonly string[];
  readonly schedule?: string;
  readonly duration?: string;
}

export interface BudgetSummary {
  /** The budgets that limit drift (reasons empty or listing Drifted), as written (with the CRD default when none). */
  readonly budgets: readonly BudgetInput[];
  /** One sentence per budget, e.g. "at most 10% of the NodeClaims at a time (always)". */
  readonly sentences: readonly string[];
  /** Replacements allowed at once, outside any scheduled window, for `nodeClaims` NodeClaims. */
  allowedAt(nodeClaims: number): number;
}

/** The CRD default (nodepool.go +kubebuilder:default:={{nodes: "10%"}}). */
export const DEFAULT_BUDGETS: readonly BudgetInput[] = [{ nodes: "10%" }];

/** intstr.GetScaledValueFromIntOrPercent(nodes, total, roundUp=true). */
export function budgetNodes(nodes: string, total: number): number {
  const pct = /^(\d+)%$/.exec(nodes);
  if (pct) return Math.ceil((Number(pct[1]) * total) / 100);
  return Number(nodes);
}

const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/** A cron schedule in words, for the common forms (minute hour * * day-of-week); anything else is quoted. */
export function describeSchedule(schedule: string, duration: string | undefined): string {
  const presets: Record<string, string> = { "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *", "@weekly": "0 0 * * 0" };
  const cron = presets[schedule.trim()] ?? schedule.trim();
  const parts = cron.split(/\s+/);
  const for_ = duration ? ` for ${duration}` : "";
  if (parts.length === 5 && /^\d+$/.test(parts[0]!) && /^\d+$/.test(parts[1]!) && parts[2] === "*" && parts[3] === "*") {
    const start = `${parts[1]!.padStart(2, "0")}:${parts[0]!.padStart(2, "0")}`;
    const end = endTime(Number(parts[1]), Number(parts[0]), duration);
    const dow = parts[4] === "*" ? "every day" : dayText(parts[4]!);
    return end ? `between ${start} and ${end} UTC, ${dow}` : `from ${start} UTC${for_}, ${dow}`;
  }
  return `during the schedule \`${schedule}\` (UTC)${for_}`;
}

function dayText(field: string): string {
  const name = (d: string) => (/^\d$/.test(d) ? (DAYS[Number(d) % 7] ?? d) : d.toLowerCase());
  return field
    .split(",")
    .map((p) => p.split("-").map(name).join("-"))
    .join(", ")
    .replace(/\b(sun|mon|tue|wed|thu|fri|sat)\b/g, (d) => d[0]!.toUpperCase() + d.slice(1));
}

/** HH:MM at which a window of `duration` (whole hours and minutes) ends, when it ends the same day. */
function endTime(hour: number, minute: number, duration: string | undefined): string | undefined {
  const m = duration ? /^(?:(\d+)h)?(?:(\d+)m)?(?:0s)?$/.exec(duration) : null;
  if (!m || (!m[1] && !m[2])) return undefined;
  const total = hour * 60 + minute + Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
  if (total > 24 * 60) return undefined;
  return `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
}

function sentence(b: BudgetInput): string {
  const nodes = String(b.nodes ?? "10%");
  const when = b.schedule ? describeSchedule(b.schedule, b.duration) : "always";
  const reasons = b.reasons && b.reasons.length > 0 ? ` (reasons: ${b.reasons.join(", ")})` : "";
  if (nodes === "0" || nodes === "0%") return `no NodeClaim replaced ${when === "always" ? "at any time" : when}${reasons}`;
  const what = nodes.endsWith("%") ? `${nodes} of the NodePool's NodeClaims` : `${nodes} NodeClaim${nodes === "1" ? "" : "s"}`;
  return `at most ${what} at a time${when === "always" ? "" : `, ${when}`}${reasons}`;
}

/** The budgets of `spec.disruption.budgets` that apply to drift. */
export function driftBudgets(budgets: readonly BudgetInput[] | undefined): BudgetSummary {
  const all = budgets && budgets.length > 0 ? budgets : DEFAULT_BUDGETS;
  const apply = all.filter((b) => !b.reasons || b.reasons.length === 0 || b.reasons.includes("Drifted"));
  const always = apply.filter((b) => !b.schedule);
  return {
    budgets: apply,
    sentences: apply.length > 0 ? apply.map(sentence) : ["no budget limits drift (every budget names other reasons): any number at a time"],
    allowedAt: (n) => always.reduce((min, b) => Math.min(min, budgetNodes(String(b.nodes ?? "10%"), n)), n),
  };
}
