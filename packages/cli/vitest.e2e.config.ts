import { defineProject } from "vitest/config";

// Emulator tests: moto server (python3 -m pip install "moto[server]==5.2.5") started by the tests on 127.0.0.1.
// Peer tests: Go programs built by test-tools/build.sh (e.g. karpenter-hash, Karpenter's own hash functions).
export default defineProject({
  test: { name: "cli-e2e", include: ["src/**/*.emulator.test.ts", "src/**/*.peer.test.ts"], testTimeout: 900_000, hookTimeout: 120_000, globalSetup: ["../../vitest.tmpdir.ts"] },
});
