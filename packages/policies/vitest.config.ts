import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "policies", include: ["src/**/*.test.ts"] } });
