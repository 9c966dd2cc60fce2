// Public API of @eks-gitops/capacity: a pure, offline model of what HPA replicas cost in nodes under Karpenter.
export * from "./types.ts";
export {
  type Ec2InstanceTypeInfo,
  type Ec2InstanceTypeOffering,
  type PriceInput,
  type SnapshotFromDescribeOptions,
  SnapshotError,
  parseSnapshot,
  serializeSnapshot,
  snapshotFromDescribe,
} from "./snapshot.ts";
export { PriceListError, onDemandPricesFromPriceList, priceListFilters } from "./price-list.ts";
export { type CostLine, type CostReport, type PriceQuote, HOURS_PER_MONTH, KARPENTER_PRICES_SOURCE, costOf } from "./cost.ts";
export { describeInstanceType, resolveInstanceType, eniLimitedPods, kubeReservedCpu, memoryCapacity, podCapacity } from "./instance-types.ts";
export { QuantityError, parseQuantity, formatBytes, formatCpu } from "./quantity.ts";
export { MAX_INSTANCE_TYPES, SimulationError, type SimulateOptions, cannotRun } from "./simulate.ts";
export { MAX_PODS_PLACED, MAX_REPLICAS, nodeClaimCount, pendingCount, simulate } from "./scale.ts";
export { MAX_SWEEP_POINTS, type ScaleDownOptions, type SweepOptions, scaleDown, summarizeWorkload, sweep, withReplicas } from "./scenario.ts";
export { type ReportExtras, type ReportFormat, candidateList, formatSimulation } from "./report.ts";
export { chartMermaid, chartSvg } from "./chart.ts";
export { type CompareOptions, compareSimulations } from "./compare.ts";
