// Columns of numbers, one a row, that grow a chunk at a time (issue 19: peak memory flat in input size).
//
// A typed array grown by doubling holds up to twice what it needs (at 200,000 rows, capacity for 262,144), and
// each doubling keeps the old array alive beside the new one until V8's next full collection frees it. A run keeps
// ~10 such columns a row until its report: chunks of CHUNK rows hold what is needed, give or take one chunk,
// and are never copied.

/** Rows a chunk: 16 KB of an Int32Array. */
const CHUNK_BITS = 12;
export const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

/**
 * Values by row 0, 1, 2..., in chunks of typed arrays made by `make`: a row not set yet reads 0, within the chunks
 * made so far (`get` of a row past the last chunk set throws: callers read only rows they have set, or below them).
 */
class ChunkedColumn<A extends Int32Array | Uint8Array> {
  protected readonly chunks: A[] = [];

  constructor(private readonly make: (rows: number) => A) {}

  get(row: number): number {
    return (this.chunks[row >>> CHUNK_BITS] as A)[row & MASK] as number;
  }

  set(row: number, value: number): void {
    const c = row >>> CHUNK_BITS;
    while (c >= this.chunks.length) this.chunks.push(this.make(CHUNK));
    (this.chunks[c] as A)[row & MASK] = value;
  }
}

/** Int32 values by row. */
export class Int32Column extends ChunkedColumn<Int32Array> {
  constructor() {
    super((rows) => new Int32Array(rows));
  }

  /** Rows the chunks hold (set or not). */
  get capacity(): number {
    return this.chunks.length * CHUNK;
  }

  /** The first `rows` values as one array (a sort's comparator reads them faster than through chunks). */
  slice(rows: number): Int32Array {
    const out = new Int32Array(rows);
    for (let c = 0; c * CHUNK < rows; c++) {
      const chunk = this.chunks[c] as Int32Array;
      out.set(rows - c * CHUNK >= CHUNK ? chunk : chunk.subarray(0, rows - c * CHUNK), c * CHUNK);
    }
    return out;
  }
}

/** Uint8 values by row. */
export class Uint8Column extends ChunkedColumn<Uint8Array> {
  constructor() {
    super((rows) => new Uint8Array(rows));
  }
}
