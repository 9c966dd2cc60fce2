// JSON Pointer segments (RFC 6901): `~` and `/` in keys are escaped as `~0` and `~1`.
export const pointerSegment = (key: string): string => (key.includes("~") || key.includes("/") ? key.replace(/~/g, "~0").replace(/\//g, "~1") : key);

/** The value at a JSON Pointer in parsed YAML/JSON data, or undefined when a segment is missing. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let cur = root;
  for (const raw of pointer.slice(1).split("/")) {
    if (cur === null || typeof cur !== "object") return undefined;
    const key = raw.includes("~") ? raw.replace(/~1/g, "/").replace(/~0/g, "~") : raw;
    cur = Array.isArray(cur) ? cur[Number(key)] : (cur as Record<string, unknown>)[key];
  }
  return cur;
}
