// The real-world corpus (corpus/real-world/, see its SOURCES.md) and its labels: which objects kube-apiserver 1.36.5 accepts.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadDocuments } from "../reader.ts";

/** The folder of manifests copied from public repositories. */
export const REAL_WORLD_CORPUS = fileURLToPath(new URL("../../corpus/real-world/", import.meta.url));
/** The server's verdicts, written by packages/e2e `corpus-labels.e2e.ts` (UPDATE_CORPUS_LABELS=1). */
export const CORPUS_LABELS = fileURLToPath(new URL("../../corpus/real-world-labels.json", import.meta.url));

/** One object's verdict. Objects are named by file (relative to the corpus folder), kind, namespace and name. */
export interface CorpusLabel {
  readonly file: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly accepted: boolean;
  /** For a rejected object: the HTTP code, reason and (the start of) the message. */
  readonly code?: number;
  readonly reason?: string;
  readonly message?: string;
}

export const labelKey = (l: Pick<CorpusLabel, "file" | "kind" | "namespace" | "name">) => `${l.file} ${l.kind} ${l.namespace}/${l.name}`;

export interface CorpusObject {
  readonly file: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly object: { apiVersion: string; kind: string; metadata?: { name?: string; namespace?: string } } & Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every object of the corpus as the validator reads it; a `...List` document counts as its items (as kubectl creates them). */
export function corpusObjects(): CorpusObject[] {
  const docs = loadDocuments([REAL_WORLD_CORPUS], { cwd: REAL_WORLD_CORPUS });
  const out: CorpusObject[] = [];
  for (const r of docs.resources) {
    const items = r.kind.endsWith("List") && Array.isArray(r.object.items) ? r.object.items.filter(isObject) : [r.object];
    for (const item of items) {
      const meta = isObject(item.metadata) ? item.metadata : {};
      out.push({
        file: r.file,
        kind: String(item.kind ?? ""),
        namespace: typeof meta.namespace === "string" ? meta.namespace : "",
        name: typeof meta.name === "string" ? meta.name : "",
        object: item as CorpusObject["object"],
      });
    }
  }
  return out;
}

/** The committed labels, keyed by labelKey. */
export function corpusLabels(): Map<string, CorpusLabel> {
  if (!existsSync(CORPUS_LABELS)) return new Map();
  const labels = JSON.parse(readFileSync(CORPUS_LABELS, "utf8")) as CorpusLabel[];
  return new Map(labels.map((l) => [labelKey(l), l]));
}
