import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "validate", include: ["src/**/*.test.ts"] } });
