import { defineProject } from "vitest/config";

// Unit tests only (no API server): `pnpm test`. The API-server suite is vitest.e2e.config.ts (`pnpm e2e`).
export default defineProject({ test: { name: "e2e", include: ["src/**/*.test.ts"] } });
