// Go's base64.StdEncoding.Decode error offsets: a []byte field (Secret data, ConfigMap binaryData) that is not
// valid base64 fails JSON decoding with "illegal base64 data at input byte N" (HTTP 400).
// After go/src/encoding/base64/base64.go (decodeQuantum); hand-written because Node's decoder never fails.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DECODE = new Int16Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

const isNewline = (b: number | undefined) => b === 0x0a || b === 0x0d;

/** The byte offset Go reports for a malformed standard base64 text, or undefined when it decodes. */
export function base64ErrorOffset(text: string): number | undefined {
  const src = Buffer.from(text, "utf8");
  let si = 0;
  while (si < src.length) {
    // one quantum of up to four symbols
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return undefined;
        return si - j;
      }
      const b = src[si] as number;
      si++;
      if (DECODE[b] !== -1) continue;
      if (isNewline(b)) {
        j--;
        continue;
      }
      if (b !== 0x3d) return si - 1;
      // padding
      if (j === 0 || j === 1) return si - 1;
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return src.length;
        if (src[si] !== 0x3d) return si - 1;
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) return si;
      return undefined;
    }
  }
  return undefined;
}
