// What an in-process command writes to stdout and stderr, captured per test (commands write with
// process.stdout.write / process.stderr.write; `main()` returns the exit code).
import { afterEach, beforeEach, vi } from "vitest";

export interface Captured {
  /** Everything written to stdout since the test began (a test may empty it between two commands). */
  out: string;
  /** Everything written to stderr since the test began. */
  err: string;
}

/** Call at the top of a test file: the returned object holds the current test's output. */
export function captureOutput(): Captured {
  const captured: Captured = { out: "", err: "" };
  beforeEach(() => {
    captured.out = "";
    captured.err = "";
    vi.spyOn(process.stdout, "write").mockImplementation((s) => {
      captured.out += String(s);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation((s) => {
      captured.err += String(s);
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());
  return captured;
}
