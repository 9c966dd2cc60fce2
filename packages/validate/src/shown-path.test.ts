// shownPath's fast path against node:path (the answer it replaces) on generated paths and working folders.
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isNormalAbsolute, shownPath, shownPathByNodePath } from "./shown-path.ts";

const segment = fc.constantFrom("a", "b", "rendered", ".", "..", "", "..x", ".hidden", "x..", "a b");
const path = fc.tuple(fc.boolean(), fc.array(segment, { minLength: 0, maxLength: 5 })).map(([abs, segs]) => `${abs ? "/" : ""}${segs.join("/")}`);
const folder = fc.constantFrom("/", "/work", "/work/", "/work/a", "/work/a/", "/work/./a", "/work/a/..", "a", ".", "");

describe("shownPath", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("answers as node:path does, for any path, working folder and process folder", () => {
    fc.assert(
      fc.property(path, folder, fc.constantFrom("/work", "/work/a", "/"), (p, cwd, processCwd) => {
        vi.spyOn(process, "cwd").mockReturnValue(processCwd);
        expect(shownPath(cwd, p)).toBe(shownPathByNodePath(cwd, p));
        vi.restoreAllMocks();
      }),
      { numRuns: 5000 },
    );
  });

  it("shows files inside the folder relative to it and others absolute", () => {
    expect(shownPath("/repo", "/repo/clusters/a/rendered/x.yaml")).toBe("clusters/a/rendered/x.yaml");
    expect(shownPath("/repo", "/repo2/x.yaml")).toBe("/repo2/x.yaml");
    expect(shownPath("/repo", "/repo")).toBe("/repo");
    expect(shownPath("/repo/", "/repo/a/../b.yaml")).toBe("b.yaml");
  });

  it("tells normalised absolute paths", () => {
    expect([isNormalAbsolute("/a/b.yaml"), isNormalAbsolute("/a/./b"), isNormalAbsolute("/a//b"), isNormalAbsolute("a/b"), isNormalAbsolute("/a/")]).toEqual([true, false, false, false, false]);
  });
});
