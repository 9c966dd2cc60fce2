import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "bootstrap", include: ["src/**/*.test.ts"] } });
