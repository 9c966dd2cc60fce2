import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compareNumeric, compareText } from "./order.ts";

const NAMES = ["z.yaml", "ä.yaml", "B.yaml", "a.yaml", "aa.yaml"];
const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** Sorts NAMES in a Node process of another locale, by compareText and by String.prototype.localeCompare. */
function sortedUnder(locale: string): { ours: string[]; theirs: string[] } {
  const order = fileURLToPath(new URL("./order.ts", import.meta.url));
  const script = `import(${JSON.stringify(order)}).then(({ compareText }) => {
    const names = ${JSON.stringify(NAMES)};
    console.log(JSON.stringify({ ours: [...names].sort(compareText), theirs: [...names].sort((a, b) => a.localeCompare(b)) }));
  });`;
  const env = { ...process.env, LANG: locale, LC_ALL: locale };
  const run = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { env, encoding: "utf8" });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as { ours: string[]; theirs: string[] };
}

describe("compareText", () => {
  it("sorts in the order CI has always had", () => {
    expect([...NAMES].sort(compareText)).toEqual(["a.yaml", "ä.yaml", "aa.yaml", "B.yaml", "z.yaml"]);
    expect(["1.36.10", "1.36.9", "1.36.0"].sort(compareNumeric)).toEqual(["1.36.0", "1.36.9", "1.36.10"]);
  });

  it("sorts the same under any locale, where localeCompare does not", () => {
    const c = sortedUnder("C");
    expect(c.ours).toEqual(["a.yaml", "ä.yaml", "aa.yaml", "B.yaml", "z.yaml"]);
    // the control: this Node's localeCompare follows the locale (Swedish puts ä after z, Danish aa after z too)
    const swedish = sortedUnder("sv_SE.UTF-8");
    expect(swedish.theirs).toEqual(["a.yaml", "aa.yaml", "B.yaml", "z.yaml", "ä.yaml"]);
    expect(swedish.ours).toEqual(c.ours);
    const danish = sortedUnder("da_DK.UTF-8");
    expect(danish.theirs).toEqual(["a.yaml", "B.yaml", "z.yaml", "ä.yaml", "aa.yaml"]);
    expect(danish.ours).toEqual(c.ours);
  }, 30_000);
});

describe("the product's sources", () => {
  it("sort text with compareText, never with localeCompare (the user's locale)", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) {
          if (!["node_modules", "testing", "e2e", "bench", "dist"].includes(e.name)) walk(path);
        } else if (/\.ts$/.test(e.name) && !/\.(test|e2e|bench)\.ts$/.test(e.name) && path !== fileURLToPath(new URL("./order.ts", import.meta.url))) {
          readFileSync(path, "utf8")
            .split("\n")
            .forEach((line, i) => {
              if (/\.localeCompare\(/.test(line)) offenders.push(`${path.slice(REPO.length)}:${i + 1}`);
            });
        }
      }
    };
    // every package's sources but the e2e package's (the harness of the test peers, not the product)
    for (const top of ["packages", "apps"]) {
      for (const p of readdirSync(join(REPO, top))) if (!(top === "packages" && p === "e2e") && existsSync(join(REPO, top, p, "src"))) walk(join(REPO, top, p, "src"));
    }
    expect(offenders).toEqual([]);
  });
});
