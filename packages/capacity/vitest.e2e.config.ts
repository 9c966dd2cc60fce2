import { defineConfig } from "vitest/config";

// The differential against Karpenter's own Go code (test-tools/kube/karpenter-sim): `pnpm e2e` only, never `pnpm test`.
export default defineConfig({
  test: {
    name: "capacity-e2e",
    include: ["src/**/*.e2e.ts"],
    fileParallelism: false,
    testTimeout: 1_800_000,
    hookTimeout: 1_800_000,
  },
});
