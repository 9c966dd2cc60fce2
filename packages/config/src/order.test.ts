import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compareNumeric, compareText, FAST_ORDER } from "./order.ts";

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

describe("compareText and compareNumeric without ICU", () => {
  const icu = new Intl.Collator("en");
  const icuNumeric = new Intl.Collator("en", { numeric: true });
  let seed = 19;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  // characters ICU must compare: letters and marks beyond ASCII, ignorable controls, a contraction-prone middle
  // dot, surrogate pairs, other scripts
  const OTHERS = ["ä", "É", "ß", "æ", "ﬁ", "Ⅻ", "\u0000", "\u0001", "\t", "\n", "\u0301", "\u0308", "\u00b7", "\u00a0", "\u200b", "\u0131", "\u0e40", "\u0627", "\u2028", "\ud83d\ude00"];
  const PRINTABLE = `${FAST_ORDER}ABCDEFGHIJKLMNOPQRSTUVWXYZ`;

  it("ranks printable ASCII but upper-case letters in the order of Intl.Collator('en'), each strictly before the next", () => {
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).filter((c) => !/[A-Z]/.test(c));
    expect([...printable].sort(icu.compare).join("")).toBe(FAST_ORDER);
    for (let i = 1; i < FAST_ORDER.length; i++) expect(icu.compare(FAST_ORDER[i - 1] as string, FAST_ORDER[i] as string), FAST_ORDER.slice(i - 1, i + 1)).toBe(-1);
  });

  it("answers as Intl.Collator('en') does, on random strings: prefixes of each other, the same letters in another case, other characters", () => {
    const pick = () => (random() < 0.85 ? PRINTABLE[Math.floor(random() * PRINTABLE.length)] : OTHERS[Math.floor(random() * OTHERS.length)]) as string;
    const flipCase = (t: string) => [...t].map((c) => (random() < 0.3 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join("");
    const wrong: string[] = [];
    for (let t = 0; t < 100_000; t++) {
      let a = "";
      for (let i = Math.floor(random() * 7); i > 0; i--) a += pick();
      let b = random() < 0.6 ? a.slice(0, Math.floor(random() * (a.length + 1))) : "";
      for (let i = Math.floor(random() * 4); i > 0; i--) b += pick();
      if (random() < 0.3) b = flipCase(a);
      if (compareText(a, b) !== icu.compare(a, b)) wrong.push(JSON.stringify([a, b]));
    }
    // a character ICU must read right after the first difference (a combining mark, an ignorable) changes nothing
    for (const x of PRINTABLE) for (const m of OTHERS) for (const y of FAST_ORDER) if (compareText(x + m, y) !== icu.compare(x + m, y)) wrong.push(JSON.stringify([x + m, y]));
    expect(wrong).toEqual([]);
  });

  it("compares dotted versions as Intl.Collator('en', { numeric: true }) does", () => {
    const part = () => {
      const r = random();
      return r < 0.3 ? "0" : r < 0.6 ? String(1 + Math.floor(random() * 9)) : r < 0.9 ? String(10 + Math.floor(random() * 90)) : String(Math.floor(random() * 1e12));
    };
    const version = () => Array.from({ length: 1 + Math.floor(random() * 4) }, part).join(".");
    const wrong: string[] = [];
    for (let t = 0; t < 50_000; t++) {
      const a = version();
      const b = random() < 0.4 ? `${a.split(".").slice(0, 1 + Math.floor(random() * 3)).join(".")}${random() < 0.5 ? `.${part()}` : ""}` : version();
      if (compareNumeric(a, b) !== icuNumeric.compare(a, b)) wrong.push(JSON.stringify([a, b]));
    }
    // what is not such a version is ICU's to compare
    for (const [a, b] of [["v1.2", "1.10"], ["1.02", "1.2"], ["1..2", "1.2"], ["1.36-rc.1", "1.36"]] as const) if (compareNumeric(a, b) !== icuNumeric.compare(a, b)) wrong.push(JSON.stringify([a, b]));
    expect(wrong).toEqual([]);
  });

  it("creates no collator for printable ASCII or dotted versions, and one when ICU must compare", () => {
    const order = fileURLToPath(new URL("./order.ts", import.meta.url));
    const script = `let made = 0;
      const Real = Intl.Collator;
      Intl.Collator = function (...args) { made++; return new Real(...args); };
      import(${JSON.stringify(order)}).then(({ compareNumeric, compareText }) => {
        const names = ["karpenter.sh_v1_nodepool_default.yaml", "KarpenterNodeRole-eksworkshop.trust-policy.json", "iam/index.json", "a-b.yaml", "a_b.yaml", "A_b.yaml"];
        const sorted = [...names].sort(compareText);
        const versions = ["1.36.10", "1.36", "1.36.9"].sort(compareNumeric);
        const before = made;
        const mixed = compareText("ä.yaml", "b.yaml");
        const text = made;
        const tagged = compareNumeric("v1.36", "1.36");
        console.log(JSON.stringify({ sorted, versions, before, text, after: made, mixed, tagged }));
      });`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out.sorted).toEqual(["a_b.yaml", "A_b.yaml", "a-b.yaml", "iam/index.json", "karpenter.sh_v1_nodepool_default.yaml", "KarpenterNodeRole-eksworkshop.trust-policy.json"]);
    expect(out.versions).toEqual(["1.36", "1.36.9", "1.36.10"]);
    expect(out).toMatchObject({ before: 0, text: 1, after: 2, mixed: -1, tagged: 1 });
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
