import { defineConfig } from "vitest/config";

// The API-server suite: one kube-apiserver + etcd for all files (global setup), files run one after another.
export default defineConfig({
  test: {
    name: "e2e",
    include: ["src/**/*.e2e.ts"],
    // this run's temporary folder first: the API server's files go in it, and it is removed after the server stops
    globalSetup: ["../../vitest.tmpdir.ts", "./src/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
