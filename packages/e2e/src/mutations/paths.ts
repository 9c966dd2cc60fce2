// Paths into plain JSON values: walk every node, read, write (creating what is missing) and delete, plus JSON Pointer text.
// By hand: the walk must hand back parent and key together, which the JSON Pointer libraries do not expose.

export type Path = readonly (string | number)[];
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Node {
  readonly path: Path;
  readonly value: Json;
}

/** Every node below the root, depth first, in key order. */
export function* walk(value: Json, path: Path = []): Generator<Node> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child = value[i] as Json;
      yield { path: [...path, i], value: child };
      yield* walk(child, [...path, i]);
    }
  } else if (isObject(value)) {
    for (const key of Object.keys(value).sort()) {
      const child = value[key] as Json;
      yield { path: [...path, key], value: child };
      yield* walk(child, [...path, key]);
    }
  }
}

export function isObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function getAt(root: Json, path: Path): Json | undefined {
  let cur: Json | undefined = root;
  for (const key of path) {
    if (Array.isArray(cur) && typeof key === "number") cur = cur[key];
    else if (isObject(cur) && typeof key === "string") cur = cur[key];
    else return undefined;
  }
  return cur;
}

/** Sets `path` to `value`, creating objects (or arrays, before a numeric key) on the way. */
export function setAt(root: Json, path: Path, value: Json): void {
  if (path.length === 0) throw new Error("cannot replace the root");
  let cur = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] as string | number;
    const next = (cur as Record<string | number, Json>)[key];
    if (typeof next !== "object" || next === null) {
      const created: Json = typeof path[i + 1] === "number" ? [] : {};
      (cur as Record<string | number, Json>)[key] = created;
      cur = created;
    } else {
      cur = next;
    }
  }
  (cur as Record<string | number, Json>)[path[path.length - 1] as string | number] = value;
}

export function deleteAt(root: Json, path: Path): void {
  const parent = getAt(root, path.slice(0, -1));
  const key = path[path.length - 1];
  if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1);
  else if (isObject(parent) && typeof key === "string") delete parent[key];
}

/** RFC 6901 text of a path, e.g. `/spec/template/metadata/labels/app.kubernetes.io~1name`. */
export function pointer(path: Path): string {
  return path.map((k) => `/${String(k).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}
