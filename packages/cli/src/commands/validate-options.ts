// The options of `eks-gitops validate`, apart from the command: the CLI's start (read-ahead.ts) reads the paths
// typed before the command loads, with the same options, so that an option's value is never taken for a path.
import type { ParseArgsConfig } from "node:util";

export const VALIDATE_OPTIONS = {
  output: { type: "string", short: "o", default: "text" },
  crd: { type: "string", multiple: true },
  "from-cluster": { type: "boolean", default: false },
  mirror: { type: "string" },
  "cache-dir": { type: "string" },
  "kubernetes-version": { type: "string" },
  "karpenter-version": { type: "string" },
  base: { type: "string" },
  verbose: { type: "boolean", short: "v", default: false },
  timings: { type: "boolean", default: false },
  "max-file-bytes": { type: "string" },
  root: { type: "string" },
  checks: { type: "string", multiple: true },
  "no-schema": { type: "boolean", default: false },
  "no-cel": { type: "boolean", default: false },
  "no-native": { type: "boolean", default: false },
  "no-cross-object": { type: "boolean", default: false },
  "no-iam": { type: "boolean", default: false },
  skip: { type: "string", multiple: true },
  reject: { type: "string", multiple: true },
  "ignore-missing-schemas": { type: "boolean" },
  "ignore-filename-pattern": { type: "string", multiple: true },
  strict: { type: "boolean" },
  help: { type: "boolean", short: "h", default: false },
} as const satisfies ParseArgsConfig["options"];
