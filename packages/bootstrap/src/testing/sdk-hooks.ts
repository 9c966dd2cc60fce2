// Test helpers at the SDK boundary: record every command, inject a fault after the n-th write, and serve the
// EKS APIs moto 5.2.5 lacks (add-ons, access entries, pod identity associations) from an in-memory fake.
import { InvalidRequestException, ResourceInUseException, ResourceNotFoundException } from "@aws-sdk/client-eks";
import type { AwsClients } from "../aws.ts";

type Handler = (next: (args: unknown) => Promise<unknown>, context: { clientName?: string; commandName?: string }) => (args: { input: Record<string, unknown> }) => Promise<unknown>;
interface StackClient {
  middlewareStack: { add(mw: Handler, options: { step: "initialize"; name: string; priority?: "high" | "normal" | "low" }): void };
}

const each = (clients: AwsClients) => Object.values(clients) as unknown as StackClient[];

/** Read-only API names; everything else counts as a write. */
export const isReadOnly = (command: string) => /^(Describe|Get|List)/.test(command);

/** Records `Service:Command` for every call the clients make (before retries). */
export function recordCommands(clients: AwsClients): string[] {
  const calls: string[] = [];
  for (const c of each(clients)) {
    c.middlewareStack.add(
      (next, context) => async (args) => {
        calls.push(`${(context.clientName ?? "").replace(/Client$/, "")}:${(context.commandName ?? "").replace(/Command$/, "")}`);
        return next(args);
      },
      { step: "initialize", name: "testRecorder", priority: "low" },
    );
  }
  return calls;
}

/** Counts writes across AWS and Kubernetes; throws on the write after the `failAfter`-th one. */
export class FaultInjector {
  writes = 0;
  constructor(readonly failAfter: number | undefined) {}
  /** Call before each write; throws when the fault is due. */
  beforeWrite(what: string): void {
    if (this.failAfter !== undefined && this.writes >= this.failAfter) throw new Error(`injected fault before write #${this.writes + 1} (${what})`);
    this.writes++;
  }
}

export function injectFaults(clients: AwsClients, injector: FaultInjector): void {
  for (const c of each(clients)) {
    c.middlewareStack.add(
      (next, context) => async (args) => {
        const command = (context.commandName ?? "").replace(/Command$/, "");
        if (!isReadOnly(command)) injector.beforeWrite(command);
        return next(args);
      },
      { step: "initialize", name: "testFaults", priority: "low" },
    );
  }
}

export interface FakeEksState {
  readonly addons: Map<string, { status: string; tags: Record<string, string> }>;
  readonly accessEntries: Map<string, { type: string; tags: Record<string, string> }>;
  readonly podIdentity: Map<string, { namespace: string; serviceAccount: string; roleArn: string; tags: Record<string, string> }>;
}

const FAKED = new Set([
  "ListAddons",
  "DescribeAddon",
  "CreateAddon",
  "DeleteAddon",
  "DescribeAccessEntry",
  "CreateAccessEntry",
  "DeleteAccessEntry",
  "ListPodIdentityAssociations",
  "DescribePodIdentityAssociation",
  "CreatePodIdentityAssociation",
  "UpdatePodIdentityAssociation",
  "DeletePodIdentityAssociation",
]);

const meta = { $metadata: { httpStatusCode: 200 } };
const notFound = (message: string) => new ResourceNotFoundException({ message, $metadata: { httpStatusCode: 404 } });

/**
 * Serves the EKS calls moto lacks from `state` (shape of the real responses), so the emulator tests can
 * run the whole apply; every other EKS call still goes to moto.
 */
export function fakeMissingEksApis(clients: AwsClients, state: FakeEksState = { addons: new Map(), accessEntries: new Map(), podIdentity: new Map() }): FakeEksState {
  let nextId = 1;
  (clients.eks as unknown as StackClient).middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? "").replace(/Command$/, "");
      if (!FAKED.has(command)) return next(args);
      const i = args.input;
      const out = (output: Record<string, unknown>) => ({ output: { ...output, ...meta }, response: {} });
      switch (command) {
        case "ListAddons":
          return out({ addons: [...state.addons.keys()].sort() });
        case "DescribeAddon": {
          const a = state.addons.get(String(i.addonName));
          if (!a) throw notFound(`No addon: ${i.addonName}`);
          return out({ addon: { addonName: i.addonName, clusterName: i.clusterName, status: a.status, tags: a.tags } });
        }
        case "CreateAddon":
          if (state.addons.has(String(i.addonName))) throw new ResourceInUseException({ message: "Addon already exists.", $metadata: {} });
          state.addons.set(String(i.addonName), { status: "ACTIVE", tags: { ...((i.tags as Record<string, string>) ?? {}) } });
          return out({ addon: { addonName: i.addonName, status: "CREATING" } });
        case "DeleteAddon":
          if (!state.addons.delete(String(i.addonName))) throw notFound(`No addon: ${i.addonName}`);
          return out({});
        case "DescribeAccessEntry": {
          const e = state.accessEntries.get(String(i.principalArn));
          if (!e) throw notFound(`The specified principalArn could not be found. You can view your available access entries with 'list-access-entries'.`);
          return out({ accessEntry: { principalArn: i.principalArn, type: e.type, tags: e.tags } });
        }
        case "CreateAccessEntry":
          if (state.accessEntries.has(String(i.principalArn))) throw new ResourceInUseException({ message: "The specified access entry resource is already in use on this cluster.", $metadata: {} });
          if (i.type !== "EC2_LINUX") throw new InvalidRequestException({ message: `unexpected type ${i.type}`, $metadata: {} });
          state.accessEntries.set(String(i.principalArn), { type: String(i.type), tags: { ...((i.tags as Record<string, string>) ?? {}) } });
          return out({ accessEntry: { principalArn: i.principalArn, type: i.type } });
        case "DeleteAccessEntry":
          if (!state.accessEntries.delete(String(i.principalArn))) throw notFound("access entry not found");
          return out({});
        case "ListPodIdentityAssociations":
          return out({
            associations: [...state.podIdentity]
              .filter(([, a]) => a.namespace === i.namespace && a.serviceAccount === i.serviceAccount)
              .map(([associationId, a]) => ({ associationId, namespace: a.namespace, serviceAccount: a.serviceAccount })),
          });
        case "DescribePodIdentityAssociation": {
          const a = state.podIdentity.get(String(i.associationId));
          if (!a) throw notFound("association not found");
          return out({ association: { associationId: i.associationId, ...a } });
        }
        case "CreatePodIdentityAssociation": {
          const id = `a-${nextId++}`;
          state.podIdentity.set(id, { namespace: String(i.namespace), serviceAccount: String(i.serviceAccount), roleArn: String(i.roleArn), tags: { ...((i.tags as Record<string, string>) ?? {}) } });
          return out({ association: { associationId: id } });
        }
        case "UpdatePodIdentityAssociation": {
          const a = state.podIdentity.get(String(i.associationId));
          if (!a) throw notFound("association not found");
          a.roleArn = String(i.roleArn);
          return out({});
        }
        case "DeletePodIdentityAssociation":
          if (!state.podIdentity.delete(String(i.associationId))) throw notFound("association not found");
          return out({});
      }
      return next(args);
    },
    // After the fault injector and recorder (low), so faked writes count as writes too.
    { step: "initialize", name: "testFakeMissingEks", priority: "low" },
  );
  return state;
}
