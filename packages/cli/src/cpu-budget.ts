// How many CPUs this process may use: the ones it may run on (its affinity: taskset, a container's cpuset) and
// the CPU time its cgroups allow (a container's or a Kubernetes pod's CPU limit: `docker --cpus`, `resources.limits.cpu`).
//
// Node 20's os.availableParallelism() follows the affinity (libuv's sched_getaffinity) but not a cgroup's CPU
// quota: a CI pod limited to one CPU on a 16-core node is told 16. Written here, not taken from the registry: no
// well-used package reads the quota, and node-cpu-count (0.1.1, MIT, a single release) reads cgroup v2's cpu.max
// only at the top of the mount and a v1 cgroup's own files only, missing a limit set on the process's own v2 cgroup
// (a systemd unit's CPUQuota=, a runner without a cgroup namespace). The files are read after the kernel's
// documentation (Documentation/admin-guide/cgroup-v2.rst "cpu.max", scheduler/sched-bwc.rst "cpu.cfs_quota_us",
// proc(5) mountinfo, cgroups(7) /proc/pid/cgroup) and the way Go's runtime finds them for GOMAXPROCS
// (src/internal/runtime/cgroup, Go 1.25+): the process's cgroup from /proc/self/cgroup, where that hierarchy is
// mounted from /proc/self/mountinfo, a mount skipped when the cgroup is not below its root. Go reads the process's
// own cgroup only; here its ancestors up to the mount are read too, and the lowest limit is taken: a limit set on a
// parent (a pod's above its containers', a systemd slice's) holds for its children, which may each say "max".
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

/** The CPUs a process may use, and what set that figure. */
export interface CpuBudget {
  /** CPUs' worth of time: whole for an affinity, fractional under a quota (1.5 for `--cpus=1.5`). */
  readonly cpus: number;
  /**
   * What limits it: "affinity" (the CPUs the process may run on), the cgroup quota that is lower, or other programs'
   * threads running on the machine's CPUs (`busy`).
   */
  readonly by: "affinity" | "cgroup quota" | "busy";
  /** With `by: "busy"`: the threads running besides this process, and the machine's CPUs. */
  readonly busy?: { readonly others: number; readonly machineCpus: number };
}

/**
 * Symbol of the global where the launcher (bin/running-at-start.js) puts the text of /proc/loadavg read as the
 * process starts, before it has started threads of its own.
 */
export const LOADAVG_AT_START = Symbol.for("eks-gitops.loadavg-at-start");

/** A mounted cgroup hierarchy: where its root (`root`, a cgroup path) shows in the file system (`at`). */
interface Hierarchy {
  readonly version: 1 | 2;
  readonly root: string;
  readonly at: string;
}

/** mountinfo escapes space, tab, newline and backslash in paths as \ooo (octal). */
const unescapeMountPath = (path: string): string => path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));

/**
 * What /proc/self/mountinfo says for counting CPUs, read in one pass: the cgroup hierarchies that limit CPU time
 * (cgroup v2 mounts, and cgroup v1 mounts with the `cpu` controller), and whether a file system is mounted over
 * /proc/loadavg or the online CPUs, so that they are not the kernel's own: lxcfs does so in LXD containers and pods
 * given a container's view (its online list is the container's, while its /proc/loadavg is the host's unless asked
 * for, and then a sample refreshed every few seconds). A line is `id parent major:minor root mount-point options
 * [optional...] - type source super-options`.
 */
function readMounts(mountinfo: string): { hierarchies: Hierarchy[]; overlaid: boolean } {
  const hierarchies: Hierarchy[] = [];
  let overlaid = false;
  for (const line of mountinfo.split("\n")) {
    const fields = line.split(" ");
    if (fields[4] === undefined) continue;
    const at = unescapeMountPath(fields[4]);
    if (at === "/proc/loadavg" || at.startsWith("/sys/devices/system/cpu")) overlaid = true;
    const dash = fields.indexOf("-");
    if (dash < 6 || fields.length < dash + 4) continue;
    const type = fields[dash + 1];
    const root = unescapeMountPath(fields[3] as string);
    if (type === "cgroup2") hierarchies.push({ version: 2, root, at });
    else if (type === "cgroup" && (fields[dash + 3] as string).split(",").includes("cpu")) hierarchies.push({ version: 1, root, at });
  }
  return { hierarchies, overlaid };
}

/**
 * This process's cgroup in the v2 hierarchy and in the v1 hierarchy of the `cpu` controller, from /proc/self/cgroup:
 * `0::/path` (v2), `N:cpu,cpuacct:/path` (v1).
 */
function ownCgroups(cgroup: string): { v1?: string; v2?: string } {
  const own: { v1?: string; v2?: string } = {};
  for (const line of cgroup.split("\n")) {
    const first = line.indexOf(":");
    const second = line.indexOf(":", first + 1);
    if (first < 0 || second < 0) continue;
    const controllers = line.slice(first + 1, second);
    const path = line.slice(second + 1);
    if (line.slice(0, first) === "0" && controllers === "") own.v2 = path;
    else if (controllers.split(",").includes("cpu")) own.v1 = path;
  }
  return own;
}

/**
 * The file-system folders of `cgroup` and its ancestors within `hierarchy`, the cgroup's own first; none when the
 * cgroup is not below the mounted part of the hierarchy (a bind mount of another cgroup), or lies outside this
 * process's cgroup namespace ("/../.."): its limits cannot be read there.
 */
function cgroupFolders(hierarchy: Hierarchy, cgroup: string): string[] {
  const root = hierarchy.root === "/" ? "" : hierarchy.root;
  if (cgroup !== hierarchy.root && !cgroup.startsWith(`${root}/`)) return [];
  const below = cgroup.slice(root.length);
  if (below === "/.." || below.startsWith("/../")) return [];
  const parts = below.split("/").filter((p) => p !== "");
  const folders: string[] = [];
  for (let n = parts.length; n >= 0; n--) folders.push(join(hierarchy.at, ...parts.slice(0, n)));
  return folders;
}

const readText = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
};

/** The CPUs a folder's quota allows: v2 `cpu.max` is "max 100000" or "150000 100000"; v1 takes two files. */
function folderQuota(version: 1 | 2, folder: string): number | undefined {
  let quota: number;
  let period: number;
  if (version === 2) {
    const [q, p] = (readText(join(folder, "cpu.max")) ?? "").trim().split(/\s+/);
    if (q === undefined || q === "max" || p === undefined) return undefined;
    quota = Number(q);
    period = Number(p);
  } else {
    quota = Number((readText(join(folder, "cpu.cfs_quota_us")) ?? "").trim() || Number.NaN);
    period = Number((readText(join(folder, "cpu.cfs_period_us")) ?? "").trim() || Number.NaN);
  }
  // -1 (v1's "no limit"), a file that is not there or not a number: no quota here
  return quota > 0 && period > 0 ? quota / period : undefined;
}

/**
 * The lowest CPU quota over this process's cgroups and their ancestors, in CPUs (1.5 for 150 ms of every 100 ms);
 * undefined when none is set or none can be read (not Linux, /proc not mounted). `root` is where /proc and the
 * cgroup mounts are looked for (tests give a folder laid out like them).
 */
export function cgroupCpuQuota(root = "/"): number | undefined {
  const mountinfo = readText(join(root, "proc/self/mountinfo"));
  return mountinfo === undefined ? undefined : quotaOf(root, readMounts(mountinfo).hierarchies);
}

/** cgroupCpuQuota over the hierarchies mountinfo gave (readMounts). */
function quotaOf(root: string, hierarchies: readonly Hierarchy[]): number | undefined {
  const cgroup = readText(join(root, "proc/self/cgroup"));
  if (cgroup === undefined) return undefined;
  const own = ownCgroups(cgroup);
  let lowest: number | undefined;
  for (const hierarchy of hierarchies) {
    const path = hierarchy.version === 2 ? own.v2 : own.v1;
    if (path === undefined) continue;
    for (const folder of cgroupFolders(hierarchy, path)) {
      const cpus = folderQuota(hierarchy.version, join(root, folder));
      if (cpus !== undefined && (lowest === undefined || cpus < lowest)) lowest = cpus;
    }
  }
  return lowest;
}

/**
 * The threads running on the machine, the reading one included, from the text of /proc/loadavg: its fourth field
 * ("1/91": the kernel's count of runnable threads, of all threads). Undefined for a text that does not say.
 */
export function runningThreads(loadavg: string | undefined): number | undefined {
  const field = loadavg?.split(" ")[3];
  const slash = field?.indexOf("/") ?? -1;
  const running = field === undefined || slash < 1 ? Number.NaN : Number(field.slice(0, slash));
  return Number.isInteger(running) && running > 0 ? running : undefined;
}

/**
 * This process's threads the kernel has running now (state R in /proc/self/task/<tid>/stat, proc(5)): the reading
 * one, and often a thread of V8's own (compiling or collecting in the background) while the CLI starts. Those are in
 * /proc/loadavg's count too, and are not another program's. Undefined where the folder cannot be read.
 */
export function ownRunningThreads(root = "/"): number | undefined {
  const tasks = join(root, "proc/self/task");
  let ids: string[];
  try {
    ids = readdirSync(tasks);
  } catch {
    return undefined;
  }
  let running = 0;
  for (const id of ids) {
    const stat = readText(join(tasks, id, "stat"));
    // `tid (comm) state ...`: the name may hold spaces and parentheses, the state follows the last ")"
    const close = stat?.lastIndexOf(")") ?? -1;
    if (stat !== undefined && close > 0 && stat.charAt(close + 2) === "R") running++;
  }
  return running > 0 ? running : undefined;
}

/** The machine's CPUs, all of them (not this process's affinity), from /sys/devices/system/cpu/online ("0-3,6"). */
export function machineCpus(root = "/"): number | undefined {
  const online = readText(join(root, "sys/devices/system/cpu/online"))?.trim();
  if (!online) return undefined;
  let count = 0;
  for (const range of online.split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(range);
    if (!m) return undefined;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) return undefined;
    count += to - from + 1;
  }
  return count;
}

/**
 * The CPUs this process may use: its affinity's, or its cgroups' quota where that is lower, or what other programs
 * leave of the machine's CPUs where that is lower still. Other programs' threads are counted twice, as the process
 * started (`loadavgAtStart`, read by the launcher) and now, less this process's own running threads at each
 * (ownRunningThreads: asked as `validate` starts, before it starts a thread of its own, this process's other threads
 * are Node's and V8's), and the lower count is taken: the kernel's count is of one instant. A program at a low priority
 * (`nice`) counts as busy too, though the scheduler lets this process ahead of it. Other programs are not counted
 * for a process held to some of the machine's CPUs, nor where those files are overlaid (readMounts). With
 * `by: "busy"`, `cpus` may be 0: none of the machine's CPUs left.
 */
export function cpuBudget(root = "/", affinity = availableParallelism(), loadavgAtStart?: string): CpuBudget {
  const text = process.platform === "linux" ? readText(join(root, "proc/self/mountinfo")) : undefined;
  const mounts = text === undefined ? undefined : readMounts(text);
  const quota = mounts ? quotaOf(root, mounts.hierarchies) : undefined;
  const own: CpuBudget = quota !== undefined && quota < affinity ? { cpus: quota, by: "cgroup quota" } : { cpus: affinity, by: "affinity" };
  if (process.platform !== "linux" || mounts?.overlaid) return own;
  // this process's own running threads, read before and after the machine's count (the higher: a thread of ours
  // running at either read may be in it)
  const mineBefore = ownRunningThreads(root);
  const now = runningThreads(readText(join(root, "proc/loadavg")));
  const mine = Math.max(mineBefore ?? 1, ownRunningThreads(root) ?? 1);
  const all = machineCpus(root);
  // the kernel's count is of the whole machine: it says nothing of a process held to some of its CPUs (taskset, a
  // container's cpuset, Kubernetes' static CPU manager), whose CPUs may be idle on a busy machine or busy on an idle one
  if (now === undefined || all === undefined || affinity < all) return own;
  // this process's threads are among those counted: at the start (the launcher's read) only the reading one, now
  // those read above. Counted as others, a thread of V8's was in ~9 of 10 later reads on an idle 2-CPU machine, and
  // a run went without its worker (~30% slower) whenever the start's read caught a passing thread of another
  // program: 1 run in 30 to 1 in 6 here, back to back (2026-12-05)
  const atStart = runningThreads(loadavgAtStart);
  const others = Math.max(Math.min(now - mine, atStart === undefined ? now - mine : atStart - 1), 0);
  const left = Math.max(all - others, 0);
  return left < own.cpus ? { cpus: left, by: "busy", busy: { others, machineCpus: all } } : own;
}
