// cpuBudget reads the kernel's files: here from folders laid out like /proc and /sys/fs/cgroup of the usual
// machines (a container of cgroup v2 or v1, a systemd slice, a hybrid host), written as those files are.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cgroupCpuQuota, cpuBudget, machineCpus, ownRunningThreads, runningThreads } from "./cpu-budget.ts";

const tmp = mkdtempSync(join(tmpdir(), "eks-gitops-cpu-budget-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let roots = 0;
/** A folder standing for `/`, with the given files (paths relative to it). */
function machine(files: Record<string, string>): string {
  const root = join(tmp, String(roots++));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

// mountinfo lines as the kernel writes them (fs/proc_namespace.c show_mountinfo)
const V2_MOUNT = "30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";
const V1_CPU_MOUNT = "33 25 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n";
const V1_MEMORY_MOUNT = "34 25 0:30 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:10 - cgroup cgroup rw,memory\n";
const ROOT_MOUNT = "22 1 253:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n";

describe("cgroupCpuQuota", () => {
  it("reads cgroup v2's cpu.max of the process's own cgroup, as in a container (150 ms of every 100 ms: 1.5 CPUs)", () => {
    const root = machine({ "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT, "proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": "150000 100000\n" });
    expect(cgroupCpuQuota(root)).toBe(1.5);
  });

  it("takes the lowest limit of the cgroup and its ancestors (a pod's limit above its container's 'max')", () => {
    const root = machine({
      "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT,
      "proc/self/cgroup": "0::/kubepods.slice/pod1/ctr\n",
      "sys/fs/cgroup/kubepods.slice/cpu.max": "max 100000\n",
      "sys/fs/cgroup/kubepods.slice/pod1/cpu.max": "100000 100000\n",
      "sys/fs/cgroup/kubepods.slice/pod1/ctr/cpu.max": "max 100000\n",
    });
    expect(cgroupCpuQuota(root)).toBe(1);
  });

  it("takes the lowest of two limits, wherever it is: the parent's or the child's", () => {
    const layout = (parent: string, child: string) =>
      machine({
        "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT,
        "proc/self/cgroup": "0::/pod/ctr\n",
        "sys/fs/cgroup/pod/cpu.max": `${parent} 100000\n`,
        "sys/fs/cgroup/pod/ctr/cpu.max": `${child} 100000\n`,
      });
    expect(cgroupCpuQuota(layout("100000", "150000"))).toBe(1);
    expect(cgroupCpuQuota(layout("300000", "150000"))).toBe(1.5);
  });

  it("reads nothing of a cgroup the process is not in: a bind mount of another cgroup, a sibling sharing a prefix, a path outside its namespace", () => {
    const limited = "50000 100000\n";
    // the mount shows /system.slice/other.service; the process is in /user.slice/me.scope
    const other = machine({
      "proc/self/mountinfo": `${ROOT_MOUNT}40 25 0:26 /system.slice/other.service /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n`,
      "proc/self/cgroup": "0::/user.slice/me.scope\n",
      "sys/fs/cgroup/cpu.max": limited,
    });
    expect(cgroupCpuQuota(other)).toBeUndefined();
    // mount root /docker/abc; the process is in /docker/abcdef, not below it
    const prefix = machine({
      "proc/self/mountinfo": `${ROOT_MOUNT}41 25 0:26 /docker/abc /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n`,
      "proc/self/cgroup": "0::/docker/abcdef\n",
      "sys/fs/cgroup/cpu.max": limited,
      "sys/fs/cgroup/def/cpu.max": limited,
    });
    expect(cgroupCpuQuota(prefix)).toBeUndefined();
    // a cgroup outside the process's cgroup namespace is shown relative to it, with ".."
    const outside = machine({ "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT, "proc/self/cgroup": "0::/../../init\n", "sys/fs/cgroup/init/cpu.max": limited, "sys/fs/cgroup/cpu.max": limited });
    expect(cgroupCpuQuota(outside)).toBeUndefined();
  });

  it("reads a limit set on the process's own v2 cgroup below the mount's top (a systemd unit's CPUQuota=), which the top's cpu.max does not show", () => {
    const root = machine({
      "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT,
      "proc/self/cgroup": "0::/system.slice/ci-runner.service\n",
      "sys/fs/cgroup/system.slice/ci-runner.service/cpu.max": "50000 100000\n",
    });
    expect(cgroupCpuQuota(root)).toBe(0.5);
  });

  it("has no quota where every cpu.max says 'max', or where none can be read", () => {
    expect(cgroupCpuQuota(machine({ "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT, "proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": "max 100000\n" }))).toBeUndefined();
    // the root cgroup has no cpu.max at all
    expect(cgroupCpuQuota(machine({ "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT, "proc/self/cgroup": "0::/\n" }))).toBeUndefined();
    // not Linux, or /proc not mounted
    expect(cgroupCpuQuota(machine({}))).toBeUndefined();
    expect(cgroupCpuQuota(machine({ "proc/self/mountinfo": ROOT_MOUNT, "proc/self/cgroup": "0::/\n" }))).toBeUndefined();
  });

  it("reads cgroup v1's cpu.cfs_quota_us and cpu.cfs_period_us of the hierarchy with the cpu controller; -1 is no limit", () => {
    const files = {
      "proc/self/mountinfo": ROOT_MOUNT + V1_MEMORY_MOUNT + V1_CPU_MOUNT,
      "proc/self/cgroup": "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n",
      "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "-1\n",
      "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
      "sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "250000\n",
      "sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n",
      // the memory hierarchy's files are never read for CPU
      "sys/fs/cgroup/memory/docker/abc/cpu.cfs_quota_us": "1000\n",
    };
    expect(cgroupCpuQuota(machine(files))).toBe(2.5);
    expect(cgroupCpuQuota(machine({ ...files, "sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "-1\n" }))).toBeUndefined();
  });

  it("finds the cgroup below a mount of part of the hierarchy (mount root /docker/abc), and a mount point with a space (\\040)", () => {
    const root = machine({
      "proc/self/mountinfo": `${ROOT_MOUNT}35 25 0:29 /docker/abc /sys/fs/cgroup/cpu\\040x rw,relatime - cgroup cgroup rw,cpu\n`,
      "proc/self/cgroup": "3:cpu:/docker/abc/inner\n",
      "sys/fs/cgroup/cpu x/inner/cpu.cfs_quota_us": "100000\n",
      "sys/fs/cgroup/cpu x/inner/cpu.cfs_period_us": "100000\n",
    });
    expect(cgroupCpuQuota(root)).toBe(1);
  });

  it("on a hybrid host (v1 cpu controller and an empty v2 mount), takes the v1 limit", () => {
    const root = machine({
      "proc/self/mountinfo": `${ROOT_MOUNT}${V1_CPU_MOUNT}36 25 0:31 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n`,
      "proc/self/cgroup": "4:cpu,cpuacct:/ci\n0::/ci\n",
      "sys/fs/cgroup/cpu,cpuacct/ci/cpu.cfs_quota_us": "100000\n",
      "sys/fs/cgroup/cpu,cpuacct/ci/cpu.cfs_period_us": "100000\n",
    });
    expect(cgroupCpuQuota(root)).toBe(1);
  });

  it("ignores a file that is not a number", () => {
    const root = machine({ "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT, "proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": "lots 100000\n" });
    expect(cgroupCpuQuota(root)).toBeUndefined();
  });
});

describe("cpuBudget", () => {
  it("is the affinity's CPUs, or the quota where that is lower", () => {
    const quota = (q: string) => machine({ "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT, "proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": `${q} 100000\n` });
    if (process.platform === "linux") {
      expect(cpuBudget(quota("100000"), 16)).toEqual({ cpus: 1, by: "cgroup quota" });
      expect(cpuBudget(quota("800000"), 4)).toEqual({ cpus: 4, by: "affinity" });
    }
    expect(cpuBudget(quota("max"), 4)).toEqual({ cpus: 4, by: "affinity" });
    // this process, as the machine has it: none of the machine's CPUs left to it when the tests beside it keep them all
    expect(cpuBudget().cpus).toBeGreaterThanOrEqual(0);
    expect(cpuBudget().cpus).toBeLessThanOrEqual(availableParallelism());
  });

  // /proc/loadavg as the kernel writes it (fs/proc/loadavg.c): three load averages, running/all threads, last pid
  const loadavg = (running: number) => `0.52 0.58 0.59 ${running}/467 12345\n`;
  const busyMachine = (running: number, online: string, extra: Record<string, string> = {}) => machine({ "proc/loadavg": loadavg(running), "sys/devices/system/cpu/online": online, ...extra });

  it.runIf(process.platform === "linux")("leaves out the CPUs other programs' running threads take (this thread is one of those counted)", () => {
    // idle: this thread alone
    expect(cpuBudget(busyMachine(1, "0-1\n"), 2)).toEqual({ cpus: 2, by: "affinity" });
    // another program keeps one of two CPUs busy: one left, too few for a second thread
    expect(cpuBudget(busyMachine(2, "0-1\n"), 2)).toEqual({ cpus: 1, by: "busy", busy: { others: 1, machineCpus: 2 } });
    // more running than the machine has CPUs: none left
    expect(cpuBudget(busyMachine(5, "0-1\n"), 2)).toEqual({ cpus: 0, by: "busy", busy: { others: 4, machineCpus: 2 } });
    // a quota-limited container on a large machine busy elsewhere: its quota is what limits it
    const container = (running: number) => busyMachine(running, "0-63\n", { "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT, "proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": "200000 100000\n" });
    expect(cpuBudget(container(41), 64)).toEqual({ cpus: 2, by: "cgroup quota" });
    expect(cpuBudget(container(64), 64)).toEqual({ cpus: 1, by: "busy", busy: { others: 63, machineCpus: 64 } });
    expect(cpuBudget(busyMachine(3, "0-3,6-7\n"), 8)).toEqual({ cpus: 4, by: "busy", busy: { others: 2, machineCpus: 6 } });
    // a cgroup quota lower than what is left still says quota
    const quoted = busyMachine(2, "0-3\n", { "proc/self/mountinfo": ROOT_MOUNT + V2_MOUNT, "proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": "150000 100000\n" });
    expect(cpuBudget(quoted, 4)).toEqual({ cpus: 1.5, by: "cgroup quota" });
  });

  it.runIf(process.platform === "linux")("counts no other program for a process held to some of the machine's CPUs, or where lxcfs overlays the machine's files", () => {
    // taskset, a container's cpuset, Kubernetes' static CPU manager: the machine's count says nothing of its own CPUs
    expect(cpuBudget(busyMachine(64, "0-63\n"), 2)).toEqual({ cpus: 2, by: "affinity" });
    expect(cpuBudget(busyMachine(4, "0-3\n"), 2)).toEqual({ cpus: 2, by: "affinity" });
    // lxcfs mounts over /proc/loadavg (the host's count unless asked otherwise) and the online list (the container's)
    const LXCFS = "1245 1223 0:52 /proc/loadavg /proc/loadavg rw,nosuid,nodev,relatime - fuse.lxcfs lxcfs rw,user_id=0,group_id=0,allow_other\n";
    const LXCFS_CPU = "1250 1223 0:52 /sys/devices/system/cpu /sys/devices/system/cpu rw,nosuid,nodev,relatime - fuse.lxcfs lxcfs rw,user_id=0,group_id=0,allow_other\n";
    expect(cpuBudget(busyMachine(9, "0-1\n", { "proc/self/mountinfo": ROOT_MOUNT + LXCFS }), 2)).toEqual({ cpus: 2, by: "affinity" });
    expect(cpuBudget(busyMachine(9, "0-1\n", { "proc/self/mountinfo": ROOT_MOUNT + LXCFS_CPU }), 2)).toEqual({ cpus: 2, by: "affinity" });
    // the same machine without them: busy
    expect(cpuBudget(busyMachine(9, "0-1\n", { "proc/self/mountinfo": ROOT_MOUNT }), 2)).toEqual({ cpus: 0, by: "busy", busy: { others: 8, machineCpus: 2 } });
  });

  it.runIf(process.platform === "linux")("counts other programs' threads at the lower of two reads: as the process started (the launcher's) and now", () => {
    const now = busyMachine(3, "0-1\n");
    // this process's own start showed in the later count only: one read as it started says the machine was idle
    expect(cpuBudget(now, 2, loadavg(1))).toEqual({ cpus: 2, by: "affinity" });
    expect(cpuBudget(now, 2, loadavg(2))).toEqual({ cpus: 1, by: "busy", busy: { others: 1, machineCpus: 2 } });
    // a read at the start that does not say is not used
    expect(cpuBudget(now, 2, "")).toEqual({ cpus: 0, by: "busy", busy: { others: 2, machineCpus: 2 } });
  });

  // /proc/self/task/<tid>/stat as the kernel writes it (fs/proc/array.c): `tid (comm) state ...`
  const tasks = (...states: [string, string][]) => Object.fromEntries(states.map(([name, state], i) => [`proc/self/task/${100 + i}/stat`, `${100 + i} (${name}) ${state} 1 100 100 0 -1 4194560 0 0\n`]));

  it.runIf(process.platform === "linux")("does not count this process's own running threads as another program's", () => {
    // the reading thread and one of V8's running: the machine's count of 2 is this process alone
    const v8Busy = busyMachine(2, "0-1\n", tasks(["node", "R"], ["V8 Worker", "R"], ["libuv-worker", "S"]));
    expect(cpuBudget(v8Busy, 2)).toEqual({ cpus: 2, by: "affinity" });
    // the case that went without a worker: another program's thread passing at the start's read, V8's at the later one
    expect(cpuBudget(v8Busy, 2, loadavg(2))).toEqual({ cpus: 2, by: "affinity" });
    // another program running as well is still counted
    expect(cpuBudget(busyMachine(3, "0-1\n", tasks(["node", "R"], ["V8 Worker", "R"])), 2, loadavg(2))).toEqual({ cpus: 1, by: "busy", busy: { others: 1, machineCpus: 2 } });
    // the reading thread alone running: as before
    expect(cpuBudget(busyMachine(2, "0-1\n", tasks(["node", "R"], ["V8 Worker", "S"])), 2)).toEqual({ cpus: 1, by: "busy", busy: { others: 1, machineCpus: 2 } });
  });

  it("reads this process's running threads from its task folder", () => {
    expect(ownRunningThreads(machine(tasks(["node", "R"], ["V8 Worker", "S"], ["node (R) x", "R"], ["a) R (b", "D"])))).toBe(2);
    expect(ownRunningThreads(machine(tasks(["node", "S"])))).toBeUndefined();
    expect(ownRunningThreads(machine({}))).toBeUndefined();
    expect(ownRunningThreads(machine({ "proc/self/task/1/stat": "garbage" }))).toBeUndefined();
    // this process, as the kernel has it: at least the thread reading
    if (process.platform === "linux") expect(ownRunningThreads()).toBeGreaterThanOrEqual(1);
  });

  it.runIf(process.platform === "linux")("goes by the affinity and quota alone where the machine's files are missing or say nothing usable", () => {
    expect(cpuBudget(machine({ "sys/devices/system/cpu/online": "0-1\n" }), 2)).toEqual({ cpus: 2, by: "affinity" });
    expect(cpuBudget(machine({ "proc/loadavg": loadavg(9) }), 2)).toEqual({ cpus: 2, by: "affinity" });
    for (const online of ["", "x\n", "3-1\n", "0-\n"]) expect(cpuBudget(busyMachine(9, online), 2), online).toEqual({ cpus: 2, by: "affinity" });
    for (const text of ["0.1 0.1 0.1\n", "0.1 0.1 0.1 /4 1\n", "0.1 0.1 0.1 x/4 1\n", "0.1 0.1 0.1 0/4 1\n"]) {
      expect(cpuBudget(machine({ "proc/loadavg": text, "sys/devices/system/cpu/online": "0-1\n" }), 2), text).toEqual({ cpus: 2, by: "affinity" });
    }
  });
});

describe("runningThreads and machineCpus", () => {
  it("read the kernel's count of running threads, and the machine's online CPUs", () => {
    expect(runningThreads("0.00 0.01 0.05 1/91 4242\n")).toBe(1);
    expect(runningThreads("12.5 8.1 4.0 17/2048 99\n")).toBe(17);
    expect(runningThreads(undefined)).toBeUndefined();
    expect(machineCpus(machine({ "sys/devices/system/cpu/online": "0\n" }))).toBe(1);
    expect(machineCpus(machine({ "sys/devices/system/cpu/online": "0-3,8-11,15\n" }))).toBe(9);
    expect(machineCpus(machine({}))).toBeUndefined();
    if (process.platform === "linux") {
      // this machine's, as the kernel has them
      expect(runningThreads(readFileSync("/proc/loadavg", "latin1"))).toBeGreaterThanOrEqual(1);
      expect(machineCpus()).toBeGreaterThanOrEqual(availableParallelism());
    }
  });
});
