// "did you mean ...?": the nearest of the allowed names to a typed one, when it is near enough to be a typo.
import { distance } from "fastest-levenshtein";

/** The candidate nearest to `typed` (case-insensitive edit distance): at most 1 edit for up to 3 characters, else 2, or a third of the length up to 3. */
export function closest(typed: string, candidates: Iterable<string>): string | undefined {
  const lower = typed.toLowerCase();
  const limit = typed.length <= 3 ? 1 : Math.min(3, Math.max(2, Math.floor(typed.length / 3)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = distance(lower, c.toLowerCase());
    if (d < bestDistance || (d === bestDistance && best !== undefined && c < best)) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
