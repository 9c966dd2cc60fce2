import { configDefaults, defineProject } from "vitest/config";

// Tests against the moto AWS emulator and the Go test peers run with `pnpm e2e` (vitest.e2e.config.ts). Explicit,
// generous timeouts: CI machines are shared and noisy, and most tests here start CLI processes. No test asserts on time.
export default defineProject({
  test: {
    name: "cli",
    include: ["src/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "src/**/*.emulator.test.ts", "src/**/*.peer.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    globalSetup: ["../../vitest.tmpdir.ts"],
  },
});
