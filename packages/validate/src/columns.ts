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

/** Int32 values by row 0, 1, 2...: a row not set yet reads 0. */
export class Int32Column {
  private readonly chunks: Int32Array[] = [];

  /** Rows the chunks hold (set or not). */
  get capacity(): number {
    return this.chunks.length * CHUNK;
  }

  get(row: number): number {
    return (this.chunks[row >>> CHUNK_BITS] as Int32Array)[row & MASK] as number;
  }

  set(row: number, value: number): void {
    const c = row >>> CHUNK_BITS;
    while (c >= this.chunks.length) this.chunks.push(new Int32Array(CHUNK));
    (this.chunks[c] as Int32Array)[row & MASK] = value;
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

/** Uint8 values by row, as Int32Column. */
export class Uint8Column {
  private readonly chunks: Uint8Array[] = [];

  get(row: number): number {
    return (this.chunks[row >>> CHUNK_BITS] as Uint8Array)[row & MASK] as number;
  }

  set(row: number, value: number): void {
    const c = row >>> CHUNK_BITS;
    while (c >= this.chunks.length) this.chunks.push(new Uint8Array(CHUNK));
    (this.chunks[c] as Uint8Array)[row & MASK] = value;
  }
}
