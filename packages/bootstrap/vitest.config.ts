import { configDefaults, defineProject } from "vitest/config";

// The moto server tests take minutes on a shared 2-core machine: they run with `pnpm e2e` (vitest.e2e.config.ts).
export default defineProject({
  test: { name: "bootstrap", include: ["src/**/*.test.ts"], exclude: [...configDefaults.exclude, "src/**/*.emulator.test.ts"], testTimeout: 120_000, hookTimeout: 120_000, setupFiles: ["../../vitest.fast-check.ts"], globalSetup: ["../../vitest.tmpdir.ts"] },
});
