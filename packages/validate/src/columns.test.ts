// Chunked columns (columns.ts) give back what was set, grow one chunk at a time (never by doubling), and slice into
// one array as a typed array would hold it.
import { describe, expect, it } from "vitest";
import { CHUNK, Int32Column, Uint8Column } from "./columns.ts";

describe("Int32Column and Uint8Column", () => {
  it("give back every value set, 0 for a row not set in a chunk made", () => {
    const ints = new Int32Column();
    const bytes = new Uint8Column();
    const rows = 2 * CHUNK + 17;
    for (let row = 0; row < rows; row++) {
      ints.set(row, row % 3 === 1 ? -row : row);
      bytes.set(row, row % 251);
    }
    for (let row = 0; row < rows; row++) {
      expect(ints.get(row)).toBe(row % 3 === 1 ? -row : row);
      expect(bytes.get(row)).toBe(row % 251);
    }
    ints.set(rows + 5, 9);
    expect(ints.get(rows + 1)).toBe(0);
  });

  it("holds one chunk more than it needs at most (a doubling array held up to twice as many)", () => {
    const column = new Int32Column();
    expect(column.capacity).toBe(0);
    column.set(0, 1);
    expect(column.capacity).toBe(CHUNK);
    column.set(CHUNK, 1);
    expect(column.capacity).toBe(2 * CHUNK);
    column.set(4 * CHUNK + 1, 1);
    expect(column.capacity).toBe(5 * CHUNK);
  });

  it("slices its first rows into one Int32Array", () => {
    const column = new Int32Column();
    const rows = CHUNK + 3;
    for (let row = 0; row < rows; row++) column.set(row, 7 * row);
    for (const n of [0, 1, CHUNK - 1, CHUNK, rows]) expect([...column.slice(n)]).toEqual(Array.from({ length: n }, (_, row) => 7 * row));
  });
});
