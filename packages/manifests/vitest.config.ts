import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "manifests", include: ["src/**/*.test.ts"] } });
