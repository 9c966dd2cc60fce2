// The interruption queue: SQS queue policy, attributes and the EventBridge rules that feed it (as the upstream template sets them up).
import type { ClusterConfig } from "@eks-gitops/config";
import { arnsFor } from "./arn.ts";
import type { InterruptionQueue, InterruptionRule } from "./types.ts";

/** The events Karpenter acts on: name suffix, source, detail-type. */
const INTERRUPTION_EVENTS = [
  ["ScheduledChange", "aws.health", "AWS Health Event"],
  ["SpotInterruption", "aws.ec2", "EC2 Spot Instance Interruption Warning"],
  ["Rebalance", "aws.ec2", "EC2 Instance Rebalance Recommendation"],
  ["InstanceStateChange", "aws.ec2", "EC2 Instance State-change Notification"],
  ["CapacityReservationInterruption", "aws.ec2", "EC2 Capacity Reservation Instance Interruption Warning"],
] as const;

/** The queue and what feeds it, or undefined when the overlay does not enable interruption handling. */
export function interruptionQueue(config: ClusterConfig): InterruptionQueue | undefined {
  const name = config.karpenter.interruptionQueue;
  if (name === undefined) return undefined;
  const arn = arnsFor(config).sqsQueue(name);
  const rules: InterruptionRule[] = INTERRUPTION_EVENTS.map(([suffix, source, detailType]) => ({
    // EventBridge rule names are at most 64 characters.
    name: `Karpenter-${config.name}-${suffix}`.slice(0, 64),
    description: `Sends ${detailType} events to the Karpenter interruption queue of ${config.name}`,
    eventPattern: { source: [source], "detail-type": [detailType] },
  }));
  return {
    name,
    arn,
    // Karpenter acts on an event within seconds; older messages are stale. Server-side encryption with SQS-owned keys.
    attributes: { MessageRetentionPeriod: "300", SqsManagedSseEnabled: "true" },
    policy: {
      Version: "2012-10-17",
      Id: "EC2InterruptionPolicy",
      Statement: [
        {
          Sid: "AllowEventBridgeToSendFromThisAccount",
          Effect: "Allow",
          Principal: { Service: "events.amazonaws.com" },
          Action: "sqs:SendMessage",
          Resource: arn,
          // Confused-deputy guard: only rules of this account may deliver.
          Condition: { StringEquals: { "aws:SourceAccount": config.account } },
        },
        {
          Sid: "DenyHTTP",
          Effect: "Deny",
          Principal: "*",
          Action: "sqs:*",
          Resource: arn,
          Condition: { Bool: { "aws:SecureTransport": "false" } },
        },
      ],
    },
    rules,
  };
}
