import { defineProject } from "vitest/config";

// Explicit, generous timeouts: CI machines are shared and noisy, and a heavy test (schemas compiled, a CLI process
// started) can take many times longer there than on an idle machine. No test asserts on time.
export default defineProject({ test: { name: "manifests", include: ["src/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000, globalSetup: ["../../vitest.tmpdir.ts"] } });
