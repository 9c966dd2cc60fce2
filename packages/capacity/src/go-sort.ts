// Go's sort.Slice and sort.SliceStable, permutation for permutation: where Karpenter sorts with a less function that
// leaves ties (scheduler.go add sorts its in-flight NodeClaims by pod count with sort.Slice before every pod), the
// order of equal elements is whatever Go's algorithm makes of them, and the model must reproduce it.
//
// Written from the Go toolchain's src/sort/slice.go (Slice, SliceStable) and src/sort/zsortfunc.go (pdqsort_func,
// insertionSort_func, heapSort_func, partition_func, partitionEqual_func, partialInsertionSort_func,
// breakPatterns_func, choosePivot_func, stable_func, symMerge_func, rotate_func) and src/sort/sort.go (xorshift,
// nextPowerOfTwo), Go 1.26 (Karpenter v1.14.1's go.mod asks for go 1.26.6; the test peer is built with 1.26.8; the
// algorithm is unchanged since Go 1.19). By hand because no npm library reproduces Go's unstable order among ties;
// the e2e test go-sort.e2e.ts checks every permutation against the real Go (test-tools/kube/go-sort).

/** Go's `less(i, j)` over the elements now at i and j. */
export type Less<T> = (a: T, b: T) => boolean;

type Hint = 0 | 1 | 2; // unknownHint, increasingHint, decreasingHint

class Data<T> {
  constructor(
    readonly a: T[],
    readonly lessFn: Less<T>,
  ) {}
  less(i: number, j: number): boolean {
    return this.lessFn(this.a[i]!, this.a[j]!);
  }
  swap(i: number, j: number): void {
    const t = this.a[i]!;
    this.a[i] = this.a[j]!;
    this.a[j] = t;
  }
}

/** bits.Len(uint(n)) for 0 <= n < 2^32. */
function bitsLen(n: number): number {
  return n === 0 ? 0 : 32 - Math.clz32(n);
}

/** Sorts `array` in place exactly as Go's sort.Slice(array, less) permutes it (pdqsort; not stable). */
export function goSortSlice<T>(array: T[], less: Less<T>): T[] {
  pdqsort(new Data(array, less), 0, array.length, bitsLen(array.length));
  return array;
}

/** Sorts `array` in place exactly as Go's sort.SliceStable(array, less) (insertion sort blocks of 20, then SymMerge). */
export function goSortSliceStable<T>(array: T[], less: Less<T>): T[] {
  stable(new Data(array, less), array.length);
  return array;
}

/** Whether Go's sort.Slice would leave `array` as it is: it is sorted by `less` (see goSortSlice's note in scheduler.ts). */
export function isSorted<T>(array: readonly T[], less: Less<T>): boolean {
  for (let i = array.length - 1; i > 0; i--) if (less(array[i]!, array[i - 1]!)) return false;
  return true;
}

function insertionSort<T>(d: Data<T>, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && d.less(j, j - 1); j--) d.swap(j, j - 1);
  }
}

function siftDown<T>(d: Data<T>, lo: number, hi: number, first: number): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && d.less(first + child, first + child + 1)) child++;
    if (!d.less(first + root, first + child)) return;
    d.swap(first + root, first + child);
    root = child;
  }
}

function heapSort<T>(d: Data<T>, a: number, b: number): void {
  const first = a;
  const hi = b - a;
  for (let i = Math.trunc((hi - 1) / 2); i >= 0; i--) siftDown(d, i, hi, first);
  for (let i = hi - 1; i >= 0; i--) {
    d.swap(first, first + i);
    siftDown(d, 0, i, first);
  }
}

function pdqsort<T>(d: Data<T>, a: number, b: number, limit: number): void {
  const maxInsertion = 12;
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= maxInsertion) {
      insertionSort(d, a, b);
      return;
    }
    if (limit === 0) {
      heapSort(d, a, b);
      return;
    }
    if (!wasBalanced) {
      breakPatterns(d, a, b);
      limit--;
    }
    let [pivot, hint] = choosePivot(d, a, b);
    if (hint === 2) {
      reverseRange(d, a, b);
      pivot = b - 1 - (pivot - a);
      hint = 1;
    }
    if (wasBalanced && wasPartitioned && hint === 1) {
      if (partialInsertionSort(d, a, b)) return;
    }
    if (a > 0 && !d.less(a - 1, pivot)) {
      a = partitionEqual(d, a, b, pivot);
      continue;
    }
    const [mid, alreadyPartitioned] = partition(d, a, b, pivot);
    wasPartitioned = alreadyPartitioned;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const balanceThreshold = Math.trunc(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold;
      pdqsort(d, a, mid, limit);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= balanceThreshold;
      pdqsort(d, mid + 1, b, limit);
      b = mid;
    }
  }
}

function partition<T>(d: Data<T>, a: number, b: number, pivot: number): [number, boolean] {
  d.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && d.less(i, a)) i++;
  while (i <= j && !d.less(j, a)) j--;
  if (i > j) {
    d.swap(j, a);
    return [j, true];
  }
  d.swap(i, j);
  i++;
  j--;
  for (;;) {
    while (i <= j && d.less(i, a)) i++;
    while (i <= j && !d.less(j, a)) j--;
    if (i > j) break;
    d.swap(i, j);
    i++;
    j--;
  }
  d.swap(j, a);
  return [j, false];
}

function partitionEqual<T>(d: Data<T>, a: number, b: number, pivot: number): number {
  d.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !d.less(a, i)) i++;
    while (i <= j && d.less(a, j)) j--;
    if (i > j) break;
    d.swap(i, j);
    i++;
    j--;
  }
  return i;
}

function partialInsertionSort<T>(d: Data<T>, a: number, b: number): boolean {
  const maxSteps = 5;
  const shortestShifting = 50;
  let i = a + 1;
  for (let step = 0; step < maxSteps; step++) {
    while (i < b && !d.less(i, i - 1)) i++;
    if (i === b) return true;
    if (b - a < shortestShifting) return false;
    d.swap(i, i - 1);
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1; j--) {
        if (!d.less(j, j - 1)) break;
        d.swap(j, j - 1);
      }
    }
    if (b - i >= 2) {
      for (let j = i + 1; j < b; j++) {
        if (!d.less(j, j - 1)) break;
        d.swap(j, j - 1);
      }
    }
  }
  return false;
}

const MASK64 = (1n << 64n) - 1n;

function breakPatterns<T>(d: Data<T>, a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  // xorshift(length) (sort.go), a uint64 generator: BigInt keeps the 64-bit wrap-around exact.
  let random = BigInt(length);
  const modulus = 1 << bitsLen(length);
  const start = a + Math.trunc(length / 4) * 2 - 1;
  for (let idx = start; idx <= start + 2; idx++) {
    random ^= (random << 13n) & MASK64;
    random ^= random >> 7n;
    random ^= (random << 17n) & MASK64;
    let other = Number(random & BigInt(modulus - 1));
    if (other >= length) other -= length;
    d.swap(idx, a + other);
  }
}

function choosePivot<T>(d: Data<T>, a: number, b: number): [number, Hint] {
  const shortestNinther = 50;
  const maxSwaps = 4 * 3;
  const l = b - a;
  const swaps = { n: 0 };
  let i = a + Math.trunc(l / 4) * 1;
  let j = a + Math.trunc(l / 4) * 2;
  let k = a + Math.trunc(l / 4) * 3;
  if (l >= 8) {
    if (l >= shortestNinther) {
      i = median(d, i - 1, i, i + 1, swaps);
      j = median(d, j - 1, j, j + 1, swaps);
      k = median(d, k - 1, k, k + 1, swaps);
    }
    j = median(d, i, j, k, swaps);
  }
  if (swaps.n === 0) return [j, 1];
  if (swaps.n === maxSwaps) return [j, 2];
  return [j, 0];
}

function order2<T>(d: Data<T>, a: number, b: number, swaps: { n: number }): [number, number] {
  if (d.less(b, a)) {
    swaps.n++;
    return [b, a];
  }
  return [a, b];
}

function median<T>(d: Data<T>, a: number, b: number, c: number, swaps: { n: number }): number {
  [a, b] = order2(d, a, b, swaps);
  [b, c] = order2(d, b, c, swaps);
  [a, b] = order2(d, a, b, swaps);
  return b;
}

function reverseRange<T>(d: Data<T>, a: number, b: number): void {
  let i = a;
  let j = b - 1;
  while (i < j) {
    d.swap(i, j);
    i++;
    j--;
  }
}

function swapRange<T>(d: Data<T>, a: number, b: number, n: number): void {
  for (let i = 0; i < n; i++) d.swap(a + i, b + i);
}

function stable<T>(d: Data<T>, n: number): void {
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(d, a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(d, a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(d, a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(d, a, m, n);
    blockSize *= 2;
  }
}

function symMerge<T>(d: Data<T>, a: number, m: number, b: number): void {
  if (m - a === 1) {
    let i = m;
    let j = b;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (d.less(h, a)) i = h + 1;
      else j = h;
    }
    for (let k = a; k < i - 1; k++) d.swap(k, k + 1);
    return;
  }
  if (b - m === 1) {
    let i = a;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!d.less(m, h)) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) d.swap(k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!d.less(p - c, c)) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(d, start, m, end);
  if (a < start && start < mid) symMerge(d, a, start, mid);
  if (mid < end && end < b) symMerge(d, mid, end, b);
}

function rotate<T>(d: Data<T>, a: number, m: number, b: number): void {
  let i = m - a;
  let j = b - m;
  while (i !== j) {
    if (i > j) {
      swapRange(d, m - i, m, j);
      i -= j;
    } else {
      swapRange(d, m - i, m + j - i, i);
      j -= i;
    }
  }
  swapRange(d, m - i, m, i);
}
