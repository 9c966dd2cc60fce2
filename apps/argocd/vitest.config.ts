import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "argocd", include: ["src/**/*.test.ts"] } });
