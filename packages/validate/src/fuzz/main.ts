// `pnpm fuzz -- --runs N [--seed S]`: a fuzz campaign in a child process under a watchdog (an input that takes
// more than --timeout seconds is a hang: the child is killed and the campaign resumes after it). Prints inputs
// tried, failures, hangs, the slowest input and the peak memory of the child. Exit 1 when anything failed.
import { type ChildProcess, fork } from "node:child_process";
import { parseArgs } from "node:util";
import { MIRROR, TEST_CACHE } from "../testing.ts";
import { type FuzzFailure, type FuzzStats, runCampaign } from "./campaign.ts";

type Message =
  | { type: "start"; index: number; label: string }
  | { type: "done"; index: number; label: string; ms: number; failure?: FuzzFailure }
  | { type: "end"; stats: FuzzStats; maxRssBytes: number };

const USAGE = "usage: pnpm fuzz -- --runs N [--seed S] [--timeout SECONDS]";
/** A mistyped option is a usage error (exit 2), never a campaign of 0 inputs that reports success. */
function usageError(message: string): never {
  process.stderr.write(`fuzz: ${message}\n${USAGE}\n`);
  process.exit(2);
}
let values: { runs: string; seed: string; timeout: string; child?: string };
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== "--"),
    options: { runs: { type: "string", default: "5000" }, seed: { type: "string", default: "14" }, timeout: { type: "string", default: "10" }, child: { type: "string" } },
  }));
} catch (err) {
  usageError((err as Error).message);
}
/** A whole number >= min, as typed (`--runs 1e3`, `--runs x`, `--runs ""` are refused). */
function wholeNumber(option: string, text: string, min: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) usageError(`--${option} ${JSON.stringify(text)}: expected a whole number >= ${min}`);
  return Number(text);
}
const runs = wholeNumber("runs", values.runs, 1);
if (values.child !== undefined) wholeNumber("child", values.child, 0);
if (!(Number(values.timeout) > 0)) usageError(`--timeout ${JSON.stringify(values.timeout)}: expected a number of seconds > 0`);
/**
 * The child's V8 heap limit: garbage of earlier inputs is collected before the heap grows past it, so the peak
 * memory measured is what one input needs; an input that needs more ends the child (reported as a failure).
 */
const HEAP_MB = 320;
const seed = wholeNumber("seed", values.seed, 0);

if (values.child !== undefined) {
  // the child: run from the given input, report each one to the parent
  const send = (m: Message) => process.send?.(m);
  const stats = await runCampaign({
    runs,
    seed,
    from: Number(values.child),
    mirror: MIRROR,
    cacheDir: TEST_CACHE,
    onStart: (index, label) => send({ type: "start", index, label }),
    onDone: (index, label, ms, failure) => send({ type: "done", index, label, ms, ...(failure ? { failure } : {}) }),
  });
  send({ type: "end", stats, maxRssBytes: process.resourceUsage().maxRSS * 1024 });
  process.disconnect?.();
} else {
  const timeoutMs = Number(values.timeout) * 1000;
  const started = performance.now();
  const total: FuzzStats = { tried: 0, internalErrors: 0, failures: [], exitCodes: {}, slowest: { ms: 0, label: "", index: -1 } };
  const hangs: { index: number; label: string }[] = [];
  let peakRss = 0;
  let from = 0;
  while (from < runs) {
    const next = await new Promise<number>((resolveNext) => {
      const child: ChildProcess = fork(import.meta.filename, ["--runs", String(runs), "--seed", String(seed), "--child", String(from)], { execArgv: [...process.execArgv, `--max-old-space-size=${HEAP_MB}`], stdio: ["ignore", "inherit", "inherit", "ipc"] });
      let current: { index: number; label: string } | undefined;
      let timer: NodeJS.Timeout | undefined;
      let ended = false;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (current) hangs.push(current);
          child.kill("SIGKILL");
        }, timeoutMs);
      };
      child.on("message", (m: Message) => {
        if (m.type === "start") {
          current = { index: m.index, label: m.label };
          arm();
        } else if (m.type === "done") {
          current = undefined;
          clearTimeout(timer);
          total.tried++;
          if (m.failure) total.failures.push(m.failure);
          if (m.ms > total.slowest.ms) total.slowest = { ms: m.ms, label: m.label, index: m.index };
          if (total.tried % 1000 === 0) process.stderr.write(`fuzz: ${total.tried} inputs, ${total.failures.length} failures, ${hangs.length} hangs, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
        } else if (m.type === "end") {
          ended = true;
          for (const [code, n] of Object.entries(m.stats.exitCodes)) total.exitCodes[Number(code)] = (total.exitCodes[Number(code)] ?? 0) + n;
          total.internalErrors += m.stats.internalErrors;
          peakRss = Math.max(peakRss, m.maxRssBytes);
        }
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        // killed on a hang, or died (out of memory, a crash): count the input it was on, resume after it
        if (!ended) {
          const at = current ?? { index: Math.max(from, total.tried), label: "(between inputs)" };
          if (!hangs.some((h) => h.index === at.index)) total.failures.push({ index: at.index, label: at.label, exitCode: 3, problems: [`the process died (${signal ?? code})`] });
          resolveNext(at.index + 1);
        } else resolveNext(runs);
      });
    });
    from = next;
  }
  const seconds = (performance.now() - started) / 1000;
  const lines = [
    `fuzz: ${total.tried} inputs tried (seed ${seed}) in ${seconds.toFixed(0)} s`,
    `exit codes: ${Object.entries(total.exitCodes).map(([c, n]) => `${c}: ${n}`).join(", ")}`,
    `internal errors (exit 3): ${total.internalErrors}`,
    `property failures: ${total.failures.length}`,
    `hangs (over ${values.timeout} s): ${hangs.length}${hangs.map((h) => `\n  #${h.index} ${h.label}`).join("")}`,
    `slowest input: ${total.slowest.ms.toFixed(0)} ms (#${total.slowest.index} ${total.slowest.label})`,
    `peak RSS: ${(peakRss / 1024 / 1024).toFixed(0)} MB`,
  ];
  for (const f of total.failures.slice(0, 20)) lines.push(`failure #${f.index} ${f.label} (exit ${f.exitCode}): ${f.problems.join("; ")}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  process.exitCode = total.failures.length + hangs.length + total.internalErrors > 0 ? 1 : 0;
}
