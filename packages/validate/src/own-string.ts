// One helper shared by the scan (both threads), the stream and the result store: kept apart so that the
// read-ahead worker's bundle takes it without the result store.

/**
 * A copy of `s` that shares nothing with the text it may have been sliced from: V8 keeps a whole file's text
 * alive while any slice of it lives (short strings are always copied by V8).
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}
