import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "clusters", include: ["*.test.ts"] } });
