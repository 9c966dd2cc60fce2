import { defineConfig } from "vitest/config";

// The differential against Karpenter's own Go code (test-tools/kube/karpenter-sim): `pnpm e2e` only, never `pnpm test`.
// The 520 scenarios take about 9 min of CPU (one streaming peer beside the simulation); on this shared 2-core machine
// under load the wall time was 6-30 min: a generous explicit timeout, no speed assumption.
export default defineConfig({
  test: {
    name: "capacity-e2e",
    include: ["src/**/*.e2e.ts"],
    fileParallelism: false,
    testTimeout: 10_800_000,
    hookTimeout: 10_800_000,
    globalSetup: ["../../vitest.tmpdir.ts"],
  },
});
