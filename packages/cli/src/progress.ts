// Progress on stderr for the slow first steps (the schema download, bootstrap's AWS discovery): one line
// redrawn in place, and only on a terminal, so logs, pipes and CI output never get it.
import type { DiscoveryProgress } from "@eks-gitops/bootstrap";
import type { DownloadProgress } from "@eks-gitops/validate";

/** Where progress goes: process.stderr, or a fake terminal in tests. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface ProgressLine {
  /** Redraws the line (nothing is written when the text did not change). */
  show(text: string): void;
  /** Clears the line, then writes `final` on a line of its own when given. */
  end(final?: string): void;
}

/** Carriage return, then erase the line (ECMA-48 EL 2). */
const CLEAR = "\r\x1b[2K";

/** A progress line on `stream`, or undefined when `tty` is false (by default: when the stream is not a terminal). */
export function progressLine(stream: ProgressStream = process.stderr, tty: boolean = stream.isTTY === true): ProgressLine | undefined {
  if (!tty) return undefined;
  let shown = "";
  return {
    show(text) {
      if (text === shown) return;
      shown = text;
      stream.write(`${CLEAR}${text}`);
    },
    end(final) {
      if (shown !== "") stream.write(CLEAR);
      shown = "";
      if (final !== undefined) stream.write(`${final}\n`);
    },
  };
}

const mb = (bytes: number) => (bytes / 1_000_000).toFixed(1);

/**
 * Shows the pinned schemas' downloads (several run at once) as one line: files finished and megabytes
 * received; `finish` says what was downloaded. Nothing at all when the cache had every file.
 */
export function schemaDownloadProgress(line: ProgressLine | undefined): { onProgress?: (p: DownloadProgress) => void; finish: () => void } {
  if (!line) return { finish: () => {} };
  const downloads = new Map<string, DownloadProgress>();
  const totals = () => {
    let received = 0;
    let total = 0;
    let known = true;
    let done = 0;
    for (const d of downloads.values()) {
      received += d.received;
      if (d.total === undefined) known = false;
      else total += d.total;
      if (d.done) done++;
    }
    return { received, total: known ? total : undefined, done };
  };
  return {
    onProgress(p) {
      downloads.set(p.location, p);
      const t = totals();
      const size = t.total === undefined ? `${mb(t.received)} MB` : `${mb(t.received)} of ${mb(t.total)} MB`;
      line.show(`downloading pinned schemas: ${t.done} of ${downloads.size} files, ${size}`);
    },
    finish() {
      if (downloads.size === 0) return;
      const t = totals();
      line.end(`downloaded ${t.done} pinned schema files (${mb(t.received)} MB) into the cache; later runs read them from there`);
    },
  };
}

/** Shows bootstrap's discovery reads as they finish; the line is gone once the last one is (before the plan prints). */
export function discoveryProgress(line: ProgressLine | undefined): { onProgress?: (p: DiscoveryProgress) => void; finish: () => void } {
  if (!line) return { finish: () => {} };
  return {
    onProgress: (p) => (p.done === p.total ? line.end() : line.show(`discovering what exists in AWS: ${p.done} of ${p.total} reads done (${p.step})`)),
    // discovery refused or failed part way
    finish: () => line.end(),
  };
}
