// Public API of @eks-gitops/cli (for tests and other tools).
export { main } from "./bin.ts";
export { buildSimulationInput } from "./capacity/input.ts";
export type { BuiltInput, ReplicaPoint, Scenario, UnrenderedCapacity } from "./capacity/input.ts";
export { diff } from "./commands/diff.ts";
export { simulateClusters } from "./commands/simulate.ts";
export { synth } from "./commands/synth.ts";
export { diffRendered } from "./diff/changes.ts";
export type { ObjectChange, RenderedDiff } from "./diff/changes.ts";
export { COMMENT_MARKER, formatJson, formatMarkdown, formatText, GITHUB_COMMENT_LIMIT } from "./diff/format.ts";
export { EXIT, UsageError } from "./exit-codes.ts";
export { renderCluster } from "./render.ts";
export type { RenderedTree } from "./render.ts";
export { findRepoRoot } from "./repo.ts";
export { canonicalize, objectFileName, toJson, toYaml } from "./serialize.ts";
export { compareTrees, isEmptyDifference, readTree, replaceTree } from "./tree.ts";
