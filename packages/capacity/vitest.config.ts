import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "capacity", include: ["src/**/*.test.ts"] } });
