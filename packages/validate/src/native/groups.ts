// The API group modules of the native stage (one file per group; add a group's module here).
import type { NativeGroup } from "./registry.ts";

export const NATIVE_GROUPS: readonly NativeGroup[] = [];
