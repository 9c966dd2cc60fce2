// JSON syntax errors with a line and column: V8's JSON.parse gives a character offset, or for some errors none at all.

/**
 * Offset of the first syntax error in `text` (RFC 8259), or undefined if none is found. Only called
 * once JSON.parse has failed, for the position V8 leaves out of messages such as
 * `Unexpected token '}', "..." is not valid JSON`. Hand-written: 40 lines of grammar instead of a
 * second JSON parser as a dependency; the reason itself still comes from V8.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const digits = (required: boolean) => {
    if (required && !(text[i]! >= "0" && text[i]! <= "9")) fail();
    while (text[i]! >= "0" && text[i]! <= "9") i++;
  };
  const string = () => {
    i++;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c === "\\") {
        i++;
        if (text[i] === "u") {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail();
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else fail();
        continue;
      }
      if (c < " ") fail();
      i++;
    }
    fail();
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      ws();
      if (text[i] === close) {
        i++;
        return;
      }
      for (;;) {
        if (c === "{") {
          ws();
          if (text[i] !== '"') fail();
          string();
          ws();
          if (text[i] !== ":") fail();
          i++;
        }
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === close) {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '"') {
      string();
      return;
    }
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      if (text[i] === "-") i++;
      if (text[i] === "0") i++;
      else digits(true);
      if (text[i] === ".") {
        i++;
        digits(true);
      }
      if (text[i] === "e" || text[i] === "E") {
        i++;
        if (text[i] === "+" || text[i] === "-") i++;
        digits(true);
      }
      return;
    }
    for (const literal of ["true", "false", "null"]) {
      if (c !== literal[0]) continue;
      for (const ch of literal) {
        if (text[i] !== ch) fail();
        i++;
      }
      return;
    }
    fail();
  };
  try {
    value();
    ws();
    return i < text.length ? i : undefined;
  } catch (at) {
    return typeof at === "number" ? at : undefined; // a RangeError (nesting deeper than the stack): no position
  }
}

/** 1-based line and column of a character offset (`\r\n`, `\n` and `\r` each end a line). */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] !== "\n")) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** `invalid JSON at line L, column C: <V8's reason>`, for a JSON.parse error on `text`. */
export function jsonSyntaxMessage(text: string, err: Error): string {
  const message = String(err.message);
  const reason = message
    .replace(/ in JSON at position \d+.*$/s, "")
    .replace(/^(Unexpected token .*?), ".*" is not valid JSON$/s, "$1")
    .replace(/ \(line \d+ column \d+\)$/, "");
  const given = /at position (\d+)/.exec(message);
  const offset = given ? Number(given[1]) : /end of JSON input/.test(message) ? text.length : jsonErrorOffset(text);
  if (offset === undefined) return `invalid JSON: ${reason}`;
  const { line, column } = lineColumn(text, offset);
  return `invalid JSON at line ${line}, column ${column}: ${reason}`;
}
