// Cron schedules as kube-apiserver parses CronJob.spec.schedule: github.com/robfig/cron/v3@v3.0.1 ParseStandard
// (parser.go: 5 fields or a descriptor, optional TZ=/CRON_TZ= prefix), with its error texts.
// Hand-written: the npm cron parsers (cron-parser, croner...) accept other syntaxes (seconds fields, L, W, #, ?)
// and word their errors differently; the API server's verdict and message are robfig's, so we follow its parser.
import { goQuote } from "./report.ts";

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };
const DESCRIPTORS = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]);

class CronError extends Error {}

/** Go's strconv.Atoi (an optional sign, then decimal digits; int64 range). */
function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new CronError(`failed to parse int from ${s}: strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = Number(s);
  if (!Number.isSafeInteger(n) && Math.abs(n) >= 2 ** 63) throw new CronError(`failed to parse int from ${s}: strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return n;
}

function mustParseInt(expr: string): number {
  const n = atoi(expr);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

const intOrName = (expr: string, b: Bounds): number => b.names?.[expr.toLowerCase()] ?? mustParseInt(expr);

function checkRange(expr: string, b: Bounds): void {
  const rangeAndStep = expr.split("/");
  const lowAndHigh = (rangeAndStep[0] as string).split("-");
  let start: number;
  let end: number;
  if (lowAndHigh[0] === "*" || lowAndHigh[0] === "?") {
    start = b.min;
    end = b.max;
  } else {
    start = intOrName(lowAndHigh[0] as string, b);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = intOrName(lowAndHigh[1] as string, b);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1] as string);
    if (lowAndHigh.length === 1) end = b.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < b.min) throw new CronError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

/** Go's time.ParseDuration, for `@every <duration>` (validity only). */
function parseDuration(s: string): string | undefined {
  const orig = s;
  if (s === "0") return undefined;
  if (s.startsWith("-") || s.startsWith("+")) s = s.slice(1);
  if (s === "") return `time: invalid duration ${goQuote(orig)}`;
  while (s !== "") {
    const num = /^([0-9]*)(\.[0-9]*)?/.exec(s) as RegExpExecArray;
    if ((num[1] ?? "") === "" && (num[2] ?? "").length <= 1) return `time: invalid duration ${goQuote(orig)}`;
    s = s.slice(num[0].length);
    const unit = /^[^0-9.]*/.exec(s)?.[0] ?? "";
    if (unit === "") return `time: missing unit in duration ${goQuote(orig)}`;
    if (!["ns", "us", "µs", "μs", "ms", "s", "m", "h"].includes(unit)) return `time: unknown unit ${goQuote(unit)} in duration ${goQuote(orig)}`;
    s = s.slice(unit.length);
  }
  return undefined;
}

/**
 * The error robfig/cron's ParseStandard returns for `spec`, or undefined when it parses. `zoneError` answers for the
 * location of a TZ=/CRON_TZ= prefix (Go's time.LoadLocation), undefined when the zone is known.
 */
export function cronScheduleError(spec: string, zoneError: (zone: string) => string | undefined): string | undefined {
  try {
    if (spec.length === 0) return "empty spec string";
    if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
      const i = spec.indexOf(" ");
      const eq = spec.indexOf("=");
      // Go slices spec[eq+1:i] with i = -1 when there is no space: a runtime panic, recovered by the API server
      if (i < 0) return `invalid schedule format: runtime error: slice bounds out of range [:-1]`;
      const zone = spec.slice(eq + 1, i);
      const err = zoneError(zone);
      if (err) return `provided bad location ${zone}: ${err}`;
      spec = spec.slice(i).trim();
    }
    if (spec.startsWith("@")) {
      if (DESCRIPTORS.has(spec)) return undefined;
      if (spec.startsWith("@every ")) {
        const err = parseDuration(spec.slice("@every ".length));
        return err ? `failed to parse duration ${spec}: ${err}` : undefined;
      }
      return `unrecognized descriptor: ${spec}`;
    }
    const fields = spec.split(/[\t\n\v\f\r \u0085\u00a0]+/).filter((f) => f !== "");
    if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`;
    [MINUTES, HOURS, DOM, MONTHS, DOW].forEach((b, i) => {
      for (const expr of (fields[i] as string).split(",").filter((e) => e !== "")) checkRange(expr, b);
    });
    return undefined;
  } catch (err) {
    if (err instanceof CronError) return err.message;
    throw err;
  }
}
