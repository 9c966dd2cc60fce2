// The API group modules of the native stage (one file per group; add a group's module here).
import { apps } from "./apps.ts";
import { autoscaling } from "./autoscaling.ts";
import { core } from "./core.ts";
import type { NativeGroup } from "./registry.ts";

export const NATIVE_GROUPS: readonly NativeGroup[] = [core, apps, autoscaling];
