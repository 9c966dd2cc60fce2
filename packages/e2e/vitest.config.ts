import { defineProject } from "vitest/config";

// Unit tests only (no API server): `pnpm test`. The API-server suite is vitest.e2e.config.ts (`pnpm e2e`).
// Explicit, generous timeouts: CI machines are shared and noisy. No test asserts on time.
export default defineProject({ test: { name: "e2e", include: ["src/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000, globalSetup: ["../../vitest.tmpdir.ts"] } });
