// The API group modules of the native stage (one file per group; add a group's module here).
import { ADMISSION_REGISTRATION } from "./admissionregistration.ts";
import { apps } from "./apps.ts";
import { autoscaling } from "./autoscaling.ts";
import { BATCH } from "./batch.ts";
import { COORDINATION } from "./coordination.ts";
import { core } from "./core.ts";
import { CORE_NODE } from "./core-node.ts";
import { CERTIFICATES } from "./certificates.ts";
import { DISCOVERY } from "./discovery.ts";
import { CORE_EVENT, EVENTS } from "./event.ts";
import { FLOWCONTROL } from "./flowcontrol.ts";
import { NETWORKING } from "./networking.ts";
import { NODE } from "./node.ts";
import { POLICY } from "./policy.ts";
import { RBAC } from "./rbac.ts";
import { RESOURCE } from "./resource.ts";
import type { NativeGroup } from "./registry.ts";
import { SCHEDULING } from "./scheduling.ts";
import { STORAGE } from "./storage.ts";

export const NATIVE_GROUPS: readonly NativeGroup[] = [core, apps, autoscaling, BATCH, NETWORKING, POLICY, RBAC, SCHEDULING, STORAGE, ADMISSION_REGISTRATION, COORDINATION, NODE, DISCOVERY, FLOWCONTROL, CERTIFICATES, CORE_EVENT, EVENTS, CORE_NODE, RESOURCE];
