// cpuBudget reads the kernel's files: here from folders laid out like /proc and /sys/fs/cgroup of the usual
// machines (a container of cgroup v2 or v1, a systemd slice, a hybrid host), written as those files are.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cgroupCpuQuota, cpuBudget } from "./cpu-budget.ts";

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
    // this process, as the machine has it: at least one CPU
    expect(cpuBudget().cpus).toBeGreaterThan(0);
    expect(cpuBudget().cpus).toBeLessThanOrEqual(availableParallelism());
  });
});
