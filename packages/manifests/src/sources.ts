// Where each rendered field came from in the overlay: a side table from a JSON Pointer into a rendered object
// to the overlay field path that produced it, recorded by each construct from its own inputs. synth uses it to
// report a finding on a render it has not written at the line of cluster.ts that is wrong.

/** A field path in the overlay (`["nodePools", 0, "requirements", 1]`). */
export type OverlayPath = readonly (string | number)[];

/** Rendered JSON Pointer (prefix) -> the overlay field it comes from. Deeper pointers under it mirror the overlay's own keys. */
export type ObjectSources = Readonly<Record<string, OverlayPath>>;

/** The identity a rendered object is found by: `kind/namespace/name`. */
export const sourceKey = (o: { readonly kind: string; readonly metadata: { readonly name: string; readonly namespace?: string } }): string =>
  `${o.kind}/${o.metadata.namespace ?? ""}/${o.metadata.name}`;

const segment = (s: string): string | number => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s.replace(/~1/g, "/").replace(/~0/g, "~"));

/**
 * The overlay field behind `pointer`: the longest recorded prefix, plus the rest of the pointer as overlay keys
 * (the rendered shape mirrors the overlay below a recorded prefix: requirements, limits, labels...). The
 * locator stops at the deepest part that is written in cluster.ts, so a rest that does not mirror costs nothing.
 */
export function overlayPathOf(sources: ObjectSources, pointer: string): OverlayPath | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(sources)) {
    if (prefix !== "" && pointer !== prefix && !pointer.startsWith(`${prefix}/`)) continue;
    if (best === undefined || prefix.length > best.length) best = prefix;
  }
  if (best === undefined) return undefined;
  const rest = pointer.slice(best.length).split("/").filter((s) => s !== "").map(segment);
  return [...(sources[best] as OverlayPath), ...rest];
}
