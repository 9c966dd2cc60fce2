import { defineProject } from "vitest/config";

// Compiling the Argo CD CRD schemas takes seconds on a loaded machine; these are correctness tests, not timings.
export default defineProject({ test: { name: "argocd", include: ["src/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000, globalSetup: ["../../vitest.tmpdir.ts"] } });
