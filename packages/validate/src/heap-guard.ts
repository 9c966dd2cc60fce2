// HeapGuard: keeps a long streaming run's heap near what it really holds, instead of what V8 lets pile up.
//
// A streaming run keeps little (compact results and cross-object facts, ~0.5 KB an object), but every file
// it reads makes short-lived objects that outlive a young-generation collection or two (parsed documents,
// CEL memo keys) and land in the old generation, where V8 lets garbage pile up to well over 100 MB before
// its first full collection: on 50,000 objects the process peaked at ~300 MB with ~40 MB alive. Collecting
// whenever the heap has grown by `slack` since the last collection bounds the peak by what is alive plus the
// slack, whatever the number of files. Node offers no collection call without --expose-gc, which a CLI run
// through `pnpm` or a shebang cannot pass; setting the flag at run time and taking `gc` from a fresh context
// is what jest's leak detector does (jest-leak-detector, src/index.ts). Small runs never grow by the slack and
// never touch the flags. Where that fails, nothing is collected early and only memory is at stake, never results.
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (collect === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      const gc = runInNewContext("gc") as unknown;
      // V8 checks a code cache against a hash of the flags: put them back as they were, or the CLI's code
      // cache written at exit would be refused (and rewritten) by every later run
      setFlagsFromString("--no-expose-gc");
      collect = typeof gc === "function" ? (gc as () => void) : null;
    } catch {
      collect = null;
    }
  }
  return collect;
}

const used = () => getHeapStatistics().used_heap_size;

export class HeapGuard {
  private base = used();

  /** `slack`: growth of the used heap, in bytes, that triggers a full collection. @default 24 MiB */
  constructor(private readonly slack = 24 * 1024 * 1024) {}

  /** Collects when the heap has grown by more than `slack` (default: the guard's) since the last collection; cheap otherwise. */
  check(slack = this.slack): void {
    if (used() - this.base <= slack) return;
    this.collectNow();
  }

  /** A full collection now (e.g. before output is formatted), when the runtime allows one. */
  collectNow(): void {
    collector()?.();
    this.base = used();
  }
}
