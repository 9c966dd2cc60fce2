// Setup file of every package's vitest project: property tests are reproducible. Each `fc.assert` starts from one
// fixed seed, so `pnpm test` draws the same cases on every machine and every run, and a CI failure is a real change,
// never an unlucky draw. To explore new cases, `FC_SEED=random pnpm test` (fast-check's own random seed, printed with
// any counterexample) or `FC_SEED=<n> pnpm test` to replay one; a test that passes its own `seed` keeps it.
import fc from "fast-check";

const DEFAULT_SEED = 20_261_204;
const requested = process.env.FC_SEED;
if (requested !== "random") {
  const seed = requested === undefined || requested === "" ? DEFAULT_SEED : Number(requested);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", not ${JSON.stringify(requested)}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}
