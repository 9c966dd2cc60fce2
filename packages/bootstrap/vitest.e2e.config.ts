import { defineProject } from "vitest/config";

// Emulator tests: moto server (python3 -m pip install "moto[server]==5.2.5") started by the tests on 127.0.0.1.
export default defineProject({
  test: { name: "bootstrap-e2e", include: ["src/**/*.emulator.test.ts"], testTimeout: 60_000, hookTimeout: 120_000, globalSetup: ["../../vitest.tmpdir.ts"] },
});
