// Root vitest config: one project per workspace package (each has its own vitest.config.ts).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "clusters"],
  },
});
