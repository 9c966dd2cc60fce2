// Text files this tool writes for itself (parsed catalog documents, compiled validators) are ASCII, so a run
// reads them as latin1: the same text, copied instead of decoded as UTF-8 (several times faster on the
// megabytes of the Kubernetes OpenAPI documents).
import { isAscii } from "node:buffer";
import { readFileSync } from "node:fs";

/** A file's text: latin1 when every byte is ASCII (then it is the same text), else UTF-8. */
export function readText(path: string): string {
  const bytes = readFileSync(path);
  return bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
}

/** JSON.stringify with every non-ASCII character escaped (`\u00b5`): the same JSON value, in ASCII. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
