import { defineProject } from "vitest/config";

// Explicit, generous timeouts: CI machines are shared and noisy. No test asserts on time.
export default defineProject({ test: { name: "clusters", include: ["*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000, globalSetup: ["../vitest.tmpdir.ts"] } });
