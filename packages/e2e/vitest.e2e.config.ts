import { defineConfig } from "vitest/config";

// The API-server suite: one kube-apiserver + etcd for all files (global setup), files run one after another.
export default defineConfig({
  test: {
    name: "e2e",
    include: ["src/**/*.e2e.ts"],
    globalSetup: ["./src/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
