import { configDefaults, defineProject } from "vitest/config";

// Tests against the moto AWS emulator run with `pnpm e2e` (vitest.e2e.config.ts).
export default defineProject({ test: { name: "cli", include: ["src/**/*.test.ts"], exclude: [...configDefaults.exclude, "src/**/*.emulator.test.ts"] } });
