// Test peer only (never part of the product): runs Karpenter v1.14.1's own instance-type provider and scheduler
// over scenarios, so that packages/capacity's TypeScript model can be compared with the real thing (pnpm e2e).
//
// Only exported entry points of github.com/aws/karpenter-provider-aws and sigs.k8s.io/karpenter are called:
// instancetype.NewDefaultResolver(region).Resolve, offering.NewDefaultProvider(...).InjectOfferings,
// state.NewCluster over controller-runtime's fake client, scheduling.NewTopology, scheduling.NewScheduler(...).Solve.
//
// Protocol: one scenario per line of JSON on stdin, one result per line of JSON on stdout, in order.
//
//	karpenter-sim            # scenarios in, results out
//	karpenter-sim --version  # prints the pinned Karpenter versions
//	karpenter-sim --tables   # the provider's generated per-type tables (VPC limits, network bandwidth) as JSON
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"

	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/patrickmn/go-cache"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
	fakecr "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/log"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	awscache "github.com/aws/karpenter-provider-aws/pkg/cache"
	awsoptions "github.com/aws/karpenter-provider-aws/pkg/operator/options"
	"github.com/aws/karpenter-provider-aws/pkg/providers/capacityreservation"
	"github.com/aws/karpenter-provider-aws/pkg/providers/instancetype"
	"github.com/aws/karpenter-provider-aws/pkg/providers/instancetype/offering"
	awstest "github.com/aws/karpenter-provider-aws/pkg/test"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/cloudprovider/fake"
	"sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling"
	"sigs.k8s.io/karpenter/pkg/controllers/state"
	"sigs.k8s.io/karpenter/pkg/events"
	"sigs.k8s.io/karpenter/pkg/operator/logging"
	coreoptions "sigs.k8s.io/karpenter/pkg/operator/options"
	coretest "sigs.k8s.io/karpenter/pkg/test"
	testv1alpha1 "sigs.k8s.io/karpenter/pkg/test/v1alpha1"
	nodepoolutils "sigs.k8s.io/karpenter/pkg/utils/nodepool"
)

// Scenario is one input line.
type Scenario struct {
	// ID is echoed back.
	ID     string `json:"id"`
	Region string `json:"region"`
	// Zones of the region (allZones of InjectOfferings); every zone gets a subnet in every EC2NodeClass's status
	// unless the EC2NodeClass lists its own in Subnets below.
	Zones []string `json:"zones"`
	// InstanceTypes are DescribeInstanceTypes items, as EC2 returns them.
	InstanceTypes []ec2types.InstanceTypeInfo `json:"instanceTypes"`
	// Offerings: instance type -> zones (DescribeInstanceTypeOfferings).
	Offerings map[string][]string `json:"offerings"`
	// OnDemandPrices: instance type -> USD/h; SpotPrices: instance type -> zone -> USD/h.
	OnDemandPrices map[string]float64            `json:"onDemandPrices"`
	SpotPrices     map[string]map[string]float64 `json:"spotPrices"`
	NodeClasses    []NodeClassInput              `json:"nodeClasses"`
	NodePools      []*karpv1.NodePool            `json:"nodePools"`
	// DaemonSetPods: one pod template per DaemonSet.
	DaemonSetPods []*corev1.Pod `json:"daemonSetPods"`
	// Nodes that already exist (not managed by Karpenter), with the pods bound to them.
	Nodes []ExistingNodeInput `json:"nodes"`
	// Pods to schedule (Pending).
	Pods []*corev1.Pod `json:"pods"`
	// InstanceTypesOnly: print the resolved instance types and skip scheduling.
	InstanceTypesOnly bool `json:"instanceTypesOnly"`
	// Rounds: while a pod is refused for a NodePool's limits and the last Solve created NodeClaims, launch each of
	// them as a node (its cheapest compatible offering) and Solve again for the pods still pending: what the next
	// provisioning batch sees once the nodes have joined.
	Rounds bool `json:"rounds"`
}

type NodeClassInput struct {
	// NodeClass: its status.capacityReservations are the reservations the EC2NodeClass controller would resolve.
	NodeClass *awsv1.EC2NodeClass `json:"nodeClass"`
	// Zones the EC2NodeClass's subnets are in (status.subnets); empty: every zone.
	Zones []string `json:"zones"`
	// ReservationCounts: capacity reservation ID -> available instances, as DescribeCapacityReservations reports them
	// (the capacity reservation provider's availability cache).
	ReservationCounts map[string]int `json:"reservationCounts,omitempty"`
}

type ExistingNodeInput struct {
	Node *corev1.Node  `json:"node"`
	Pods []*corev1.Pod `json:"pods"`
	// InstanceType: when set, the node's capacity and allocatable come from the AWS provider's resolver for this type
	// under an AL2023 EC2NodeClass with Kubelet (what an EKS AL2023 node group's bootstrap reserves), not from the input.
	InstanceType string                      `json:"instanceType,omitempty"`
	Kubelet      *awsv1.KubeletConfiguration `json:"kubelet,omitempty"`
}

// Result is one output line.
type Result struct {
	ID    string `json:"id"`
	Error string `json:"error,omitempty"`
	// InstanceTypes: EC2NodeClass name -> types (only with InstanceTypesOnly).
	InstanceTypes map[string][]InstanceTypeOut `json:"instanceTypes,omitempty"`
	NodeClaims    []NodeClaimOut               `json:"nodeClaims"`
	ExistingNodes []ExistingOut                `json:"existingNodes"`
	// PodErrors: pod namespace/name -> the scheduler's error.
	PodErrors map[string]string `json:"podErrors"`
}

type InstanceTypeOut struct {
	Name              string                    `json:"name"`
	Capacity          map[string]string         `json:"capacity"`
	KubeReserved      map[string]string         `json:"kubeReserved"`
	SystemReserved    map[string]string         `json:"systemReserved"`
	EvictionThreshold map[string]string         `json:"evictionThreshold"`
	Allocatable       map[string]string         `json:"allocatable"`
	Requirements      map[string]RequirementOut `json:"requirements"`
	Offerings         []OfferingOut             `json:"offerings"`
}

type RequirementOut struct {
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

type OfferingOut struct {
	Zone         string  `json:"zone"`
	CapacityType string  `json:"capacityType"`
	Price        float64 `json:"price"`
	Available    bool    `json:"available"`
}

type NodeClaimOut struct {
	NodePool string `json:"nodePool"`
	// Pods in the order the scheduler added them.
	Pods []string `json:"pods"`
	// Requests: pods plus the smallest DaemonSet overhead (Spec.Resources.Requests after FinalizeScheduling).
	Requests map[string]string `json:"requests"`
	// InstanceTypes: every remaining option, sorted by name.
	InstanceTypes []string `json:"instanceTypes"`
	// Launch: the cheapest MaxInstanceTypes (600) as ToNodeClaim sends them, sorted by name.
	Launch        []string `json:"launch"`
	Zones         []string `json:"zones"`
	CapacityTypes []string `json:"capacityTypes"`
	// Round: the Solve (0, 1, ...) that created the NodeClaim (Rounds only).
	Round int `json:"round"`
	// LaterPods: pods a later Solve put on the node this NodeClaim was launched as (Rounds only).
	LaterPods []string `json:"laterPods,omitempty"`
	// LaunchedAs: "type zone capacity-type" of the node it was launched as before the next Solve (Rounds only).
	LaunchedAs string `json:"launchedAs,omitempty"`
}

type ExistingOut struct {
	Node string   `json:"node"`
	Pods []string `json:"pods"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println("sigs.k8s.io/karpenter v1.14.1")
		fmt.Println("github.com/aws/karpenter-provider-aws v1.14.1")
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "--tables" {
		printTables()
		return
	}
	log.SetLogger(logging.NopLogger)
	undoFakeInit()
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	dec := json.NewDecoder(in)
	enc := json.NewEncoder(out)
	var last *Scenario
	for {
		var s Scenario
		if err := dec.Decode(&s); err != nil {
			if err.Error() == "EOF" {
				return
			}
			fmt.Fprintf(os.Stderr, "karpenter-sim: bad scenario: %v\n", err)
			os.Exit(2)
		}
		// The instance-type data may be given once: a scenario without it reuses the previous one's.
		if len(s.InstanceTypes) == 0 && last != nil {
			s.InstanceTypes, s.Offerings, s.OnDemandPrices, s.SpotPrices, s.Zones = last.InstanceTypes, last.Offerings, last.OnDemandPrices, last.SpotPrices, last.Zones
		}
		if len(s.InstanceTypes) > 0 {
			last = &s
		}
		r := run(&s)
		if err := enc.Encode(r); err != nil {
			fmt.Fprintf(os.Stderr, "karpenter-sim: %v\n", err)
			os.Exit(3)
		}
		out.Flush()
	}
}

func run(s *Scenario) (r Result) {
	r.ID = s.ID
	defer func() {
		if p := recover(); p != nil {
			r.Error = fmt.Sprintf("panic: %v", p)
		}
	}()
	ctx := context.Background()
	ctx = coreoptions.ToContext(ctx, coretest.Options())
	ctx = awsoptions.ToContext(ctx, awstest.Options())

	byClass, err := resolveInstanceTypes(ctx, s)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	if s.InstanceTypesOnly {
		r.InstanceTypes = map[string][]InstanceTypeOut{}
		for name, its := range byClass {
			r.InstanceTypes[name] = typesOut(its)
		}
		return r
	}
	res, err := schedule(ctx, s, byClass)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	return res
}

func typesOut(its []*cloudprovider.InstanceType) []InstanceTypeOut {
	out := make([]InstanceTypeOut, 0, len(its))
	for _, it := range its {
		o := InstanceTypeOut{
			Name:              it.Name,
			Capacity:          quantities(it.Capacity),
			KubeReserved:      quantities(it.Overhead.KubeReserved),
			SystemReserved:    quantities(it.Overhead.SystemReserved),
			EvictionThreshold: quantities(it.Overhead.EvictionThreshold),
			Allocatable:       quantities(it.Allocatable()),
			Requirements:      map[string]RequirementOut{},
		}
		for key, req := range it.Requirements {
			values := req.Values()
			sort.Strings(values)
			o.Requirements[key] = RequirementOut{Operator: string(req.Operator()), Values: values}
		}
		for _, of := range it.Offerings {
			o.Offerings = append(o.Offerings, OfferingOut{Zone: of.Zone(), CapacityType: of.CapacityType(), Price: of.Price, Available: of.Available})
		}
		sort.Slice(o.Offerings, func(i, j int) bool {
			a, b := o.Offerings[i], o.Offerings[j]
			return a.Zone < b.Zone || (a.Zone == b.Zone && a.CapacityType < b.CapacityType)
		})
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// quantities prints amounts as integers: cpu in millicores ("7910m"), the rest as plain values (may be negative).
func quantities(l corev1.ResourceList) map[string]string {
	out := map[string]string{}
	for name, q := range l {
		if name == corev1.ResourceCPU {
			out[string(name)] = fmt.Sprintf("%dm", q.MilliValue())
		} else {
			out[string(name)] = fmt.Sprint(q.Value())
		}
	}
	return out
}

// pricing is a fixed price list (pricing.Provider): Karpenter treats an offering without a price as unavailable.
type pricing struct {
	onDemand map[string]float64
	spot     map[string]map[string]float64
}

func (p *pricing) LivenessProbe(*http.Request) error { return nil }
func (p *pricing) InstanceTypes() []ec2types.InstanceType {
	var out []ec2types.InstanceType
	for n := range p.onDemand {
		out = append(out, ec2types.InstanceType(n))
	}
	return out
}
func (p *pricing) OnDemandPrice(t ec2types.InstanceType) (float64, bool) {
	v, ok := p.onDemand[string(t)]
	return v, ok
}
func (p *pricing) SpotPrice(t ec2types.InstanceType, zone string) (float64, bool) {
	v, ok := p.spot[string(t)][zone]
	return v, ok
}
func (p *pricing) UpdateOnDemandPricing(context.Context) error { return nil }
func (p *pricing) UpdateSpotPricing(context.Context) error     { return nil }

// Per-process cache: many scenarios share EC2NodeClasses (and a re-run repeats its scenario's). Bounded: a resolved
// EC2NodeClass holds every type with its offerings (tens of MB), and a long stream of scenarios would keep them all.
var resolvedCache = map[string][]*cloudprovider.InstanceType{}
var resolvedOrder []string

const resolvedCacheSize = 8

func remember(key string, its []*cloudprovider.InstanceType) {
	if _, ok := resolvedCache[key]; !ok {
		resolvedOrder = append(resolvedOrder, key)
	}
	resolvedCache[key] = its
	for len(resolvedOrder) > resolvedCacheSize {
		delete(resolvedCache, resolvedOrder[0])
		resolvedOrder = resolvedOrder[1:]
	}
}

func resolveInstanceTypes(ctx context.Context, s *Scenario) (map[string][]*cloudprovider.InstanceType, error) {
	infos := map[ec2types.InstanceType]ec2types.InstanceTypeInfo{}
	for _, info := range s.InstanceTypes {
		infos[info.InstanceType] = info
	}
	allZones := sets.New(s.Zones...)
	prices := &pricing{onDemand: s.OnDemandPrices, spot: s.SpotPrices}
	out := map[string][]*cloudprovider.InstanceType{}
	for _, nci := range s.NodeClasses {
		nc := nci.NodeClass.DeepCopy()
		zones := nci.Zones
		if len(zones) == 0 {
			zones = s.Zones
		}
		nc.Status.Subnets = nil
		for _, z := range zones {
			nc.Status.Subnets = append(nc.Status.Subnets, awsv1.Subnet{ID: "subnet-" + z, Zone: z, ZoneID: "id-" + z})
		}
		key, _ := json.Marshal([]any{s.Region, nc.Spec, nc.Status.Subnets, nc.Status.CapacityReservations, nci.ReservationCounts, len(s.InstanceTypes), s.OnDemandPrices == nil})
		if its, ok := resolvedCache[string(key)]; ok && !s.InstanceTypesOnly {
			out[nc.Name] = its
			continue
		}
		resolver := instancetype.NewDefaultResolver(s.Region)
		var its []*cloudprovider.InstanceType
		for _, info := range s.InstanceTypes {
			its = append(its, resolver.Resolve(ctx, info, s.Offerings[string(info.InstanceType)], nc))
		}
		// The reserved offerings (offering/reserved_capacity_resolver.go) read each reservation's count from the capacity
		// reservation provider; no EC2 API: the counts are set as its nodeclass controller would after a Describe.
		reservations := capacityreservation.NewProvider(nil, clock.RealClock{}, cache.New(awscache.DefaultTTL, awscache.DefaultCleanupInterval),
			cache.New(awscache.DefaultTTL, awscache.DefaultCleanupInterval))
		for id, n := range nci.ReservationCounts {
			reservations.SetAvailableInstanceCount(id, n)
		}
		provider := offering.NewDefaultProvider(prices, reservations, nil, awscache.NewUnavailableOfferings(),
			cache.New(awscache.DefaultTTL, awscache.DefaultCleanupInterval), noShift{}, nil)
		its = provider.InjectOfferings(ctx, its, infos, nc, allZones)
		remember(string(key), its)
		out[nc.Name] = its
	}
	return out, nil
}

type noShift struct{}

func (noShift) IsZonalShifted(context.Context, string) bool { return false }
func (noShift) UpdateZonalShifts(context.Context) error     { return nil }
func (noShift) ShiftedZones() sets.Set[string]              { return sets.New[string]() }

func schedule(ctx context.Context, s *Scenario, byClass map[string][]*cloudprovider.InstanceType) (Result, error) {
	r := Result{ID: s.ID, NodeClaims: []NodeClaimOut{}, ExistingNodes: []ExistingOut{}, PodErrors: map[string]string{}}
	// Each NodePool sees its EC2NodeClass's types; only available offerings count (as cloudprovider.GetInstanceTypes).
	instanceTypes := map[string][]*cloudprovider.InstanceType{}
	for _, np := range s.NodePools {
		instanceTypes[np.Name] = byClass[np.Spec.Template.Spec.NodeClassRef.Name]
	}
	// Karpenter's state and topology list pods by spec.nodeName: the fake client needs that field index.
	client := fakecr.NewClientBuilder().WithIndex(&corev1.Pod{}, "spec.nodeName", func(o crclient.Object) []string {
		return []string{o.(*corev1.Pod).Spec.NodeName}
	}).Build()
	clk := &clock.RealClock{}
	cp := fake.NewCloudProvider()
	cluster := state.NewCluster(clk, client, cp)
	for _, n := range s.Nodes {
		node := n.Node.DeepCopy()
		if n.InstanceType != "" {
			it, err := nodeGroupType(ctx, s, n.InstanceType, n.Kubelet)
			if err != nil {
				return r, fmt.Errorf("node %s: %w", node.Name, err)
			}
			node.Status.Capacity = it.Capacity.DeepCopy()
			node.Status.Allocatable = it.Allocatable()
		}
		if err := addNode(ctx, client, cluster, node, n.Pods); err != nil {
			return r, err
		}
	}
	pending := make([]*corev1.Pod, 0, len(s.Pods))
	for _, p := range s.Pods {
		pod := p.DeepCopy()
		pod.Status.Phase = corev1.PodPending
		if err := client.Create(ctx, pod); err != nil {
			return r, fmt.Errorf("pod %s: %w", pod.Name, err)
		}
		pending = append(pending, pod)
	}
	// The provisioner hands the scheduler its NodePools heaviest first (provisioner.go: nodepoolutils.OrderByWeight).
	nodePools := append([]*karpv1.NodePool{}, s.NodePools...)
	nodepoolutils.OrderByWeight(nodePools)
	// launched node name -> index of its NodeClaim in r.NodeClaims
	launched := map[string]int{}
	for round := 0; ; round++ {
		results, err := solve(ctx, client, cluster, nodePools, instanceTypes, s.DaemonSetPods, pending)
		if err != nil {
			return r, err
		}
		first := len(r.NodeClaims)
		for _, nc := range results.NewNodeClaims {
			o := nodeClaimOut(nc)
			o.Round = round
			r.NodeClaims = append(r.NodeClaims, o)
		}
		for _, en := range results.ExistingNodes {
			if len(en.Pods) == 0 {
				continue
			}
			var names []string
			for _, p := range en.Pods {
				names = append(names, p.Namespace+"/"+p.Name)
			}
			if i, ok := launched[en.Name()]; ok {
				r.NodeClaims[i].LaterPods = append(r.NodeClaims[i].LaterPods, names...)
				continue
			}
			r.ExistingNodes = append(r.ExistingNodes, ExistingOut{Node: en.Name(), Pods: names})
		}
		r.PodErrors = map[string]string{}
		pending = pending[:0]
		for p, e := range results.PodErrors {
			r.PodErrors[p.Namespace+"/"+p.Name] = strings.TrimSpace(e.Error())
			pending = append(pending, p)
		}
		sort.Slice(pending, func(i, j int) bool { return pending[i].UID < pending[j].UID })
		// Another batch only changes something when the NodePools' limits count the launched nodes at their real
		// type instead of their largest candidate (scheduler.go subtractMax): a pod refused under limits may reach
		// "no instance type has enough resources" rather than "exceed limits", so any pending pod counts.
		if !s.Rounds || len(pending) == 0 || len(results.NewNodeClaims) == 0 || !anyLimits(nodePools) || round >= 20 {
			return r, nil
		}
		// The batch's NodeClaims join as nodes: each as its cheapest compatible offering, with its pods bound.
		for k, nc := range results.NewNodeClaims {
			node, desc, err := launchedNode(nc, fmt.Sprintf("launched-%d-%d", round, k))
			if err != nil {
				return r, err
			}
			var pods []*corev1.Pod
			for _, p := range nc.Pods {
				bound := p.DeepCopy()
				if err := client.Delete(ctx, bound); err != nil {
					return r, fmt.Errorf("pod %s: %w", bound.Name, err)
				}
				bound.ResourceVersion = ""
				pods = append(pods, bound)
			}
			if err := addNode(ctx, client, cluster, node, pods); err != nil {
				return r, err
			}
			launched[node.Name] = first + k
			r.NodeClaims[first+k].LaunchedAs = desc
		}
	}
}

func anyLimits(nodePools []*karpv1.NodePool) bool {
	for _, np := range nodePools {
		if len(np.Spec.Limits) > 0 {
			return true
		}
	}
	return false
}

// solve runs one provisioning batch: Karpenter's topology and scheduler over the cluster's current nodes.
func solve(ctx context.Context, client crclient.Client, cluster *state.Cluster, nodePools []*karpv1.NodePool,
	instanceTypes map[string][]*cloudprovider.InstanceType, daemonSetPods []*corev1.Pod, pods []*corev1.Pod) (scheduling.Results, error) {
	var stateNodes []*state.StateNode
	for n := range cluster.Nodes() {
		stateNodes = append(stateNodes, n.DeepCopy())
	}
	sort.Slice(stateNodes, func(i, j int) bool { return stateNodes[i].Name() < stateNodes[j].Name() })
	topology, err := scheduling.NewTopology(ctx, client, cluster, stateNodes, nodePools, instanceTypes, pods)
	if err != nil {
		return scheduling.Results{}, fmt.Errorf("topology: %w", err)
	}
	// As the provisioner (provisioner.go Schedule): no fallback from a reservation that this batch has used up.
	scheduler := scheduling.NewScheduler(ctx, client, nodePools, cluster, stateNodes, topology, instanceTypes, daemonSetPods,
		events.NewRecorder(&record.FakeRecorder{}), &clock.RealClock{}, nil, nil, scheduling.DisableReservedCapacityFallback)
	results, err := scheduler.Solve(ctx, pods)
	if err != nil {
		return results, fmt.Errorf("solve: %w", err)
	}
	return results, nil
}

// addNode puts a node and the pods bound to it into the fake API server and Karpenter's cluster state.
func addNode(ctx context.Context, client crclient.Client, cluster *state.Cluster, node *corev1.Node, pods []*corev1.Pod) error {
	if err := client.Create(ctx, node); err != nil {
		return fmt.Errorf("node %s: %w", node.Name, err)
	}
	if err := cluster.UpdateNode(ctx, node); err != nil {
		return fmt.Errorf("node %s: %w", node.Name, err)
	}
	for _, p := range pods {
		pod := p.DeepCopy()
		pod.Spec.NodeName = node.Name
		pod.Status.Phase = corev1.PodRunning
		if err := client.Create(ctx, pod); err != nil {
			return fmt.Errorf("pod %s: %w", pod.Name, err)
		}
		if err := cluster.UpdatePod(ctx, pod); err != nil {
			return fmt.Errorf("pod %s: %w", pod.Name, err)
		}
	}
	return nil
}

func nodeClaimOut(nc *scheduling.NodeClaim) NodeClaimOut {
	o := NodeClaimOut{NodePool: nc.NodePoolName, Requests: quantities(nc.Spec.Resources.Requests)}
	for _, p := range nc.Pods {
		o.Pods = append(o.Pods, p.Namespace+"/"+p.Name)
	}
	for _, it := range nc.InstanceTypeOptions {
		o.InstanceTypes = append(o.InstanceTypes, it.Name)
	}
	sort.Strings(o.InstanceTypes)
	claim := nc.ToNodeClaim()
	for _, req := range claim.Spec.Requirements {
		switch req.Key {
		case corev1.LabelInstanceTypeStable:
			o.Launch = append([]string{}, req.Values...)
		case corev1.LabelTopologyZone:
			o.Zones = append([]string{}, req.Values...)
		case karpv1.CapacityTypeLabelKey:
			o.CapacityTypes = append([]string{}, req.Values...)
		}
	}
	sort.Strings(o.Launch)
	sort.Strings(o.Zones)
	sort.Strings(o.CapacityTypes)
	return o
}

// launchedNode is the node a NodeClaim becomes: EC2 Fleet's pick is not public, so (as packages/capacity's
// likelyLaunch) the candidate with the cheapest available offering that meets the NodeClaim's requirements, the
// smaller type (cpu, memory, name) on a tie. Labels: the type's single-valued requirements, the NodeClaim's
// template labels, the offering's zone and capacity type, the NodePool label; taints: the NodePool's.
func launchedNode(nc *scheduling.NodeClaim, name string) (*corev1.Node, string, error) {
	var best *cloudprovider.InstanceType
	var offer *cloudprovider.Offering
	for _, it := range nc.InstanceTypeOptions {
		for _, o := range it.Offerings.Available().Compatible(nc.Requirements) {
			if offer == nil || o.Price < offer.Price || (o.Price == offer.Price && it != best && smaller(it, best)) {
				best, offer = it, o
			}
		}
	}
	if best == nil {
		return nil, "", fmt.Errorf("NodeClaim of %s has no available offering", nc.NodePoolName)
	}
	labels := map[string]string{}
	for key, req := range best.Requirements {
		if req.Operator() == corev1.NodeSelectorOpIn && req.Len() == 1 {
			labels[key] = req.Values()[0]
		}
	}
	for k, v := range nc.Labels {
		labels[k] = v
	}
	labels[corev1.LabelTopologyZone] = offer.Zone()
	labels[karpv1.CapacityTypeLabelKey] = offer.CapacityType()
	labels[karpv1.NodePoolLabelKey] = nc.NodePoolName
	labels[corev1.LabelHostname] = name
	node := &corev1.Node{}
	node.Name = name
	node.Labels = labels
	node.Spec.ProviderID = "aws:///" + offer.Zone() + "/" + name
	node.Spec.Taints = append([]corev1.Taint{}, nc.Spec.Taints...)
	node.Status.Capacity = best.Capacity.DeepCopy()
	node.Status.Allocatable = best.Allocatable()
	return node, best.Name + " " + offer.Zone() + " " + offer.CapacityType(), nil
}

func smaller(a, b *cloudprovider.InstanceType) bool {
	ac, bc := a.Capacity[corev1.ResourceCPU], b.Capacity[corev1.ResourceCPU]
	if c := ac.Cmp(bc); c != 0 {
		return c < 0
	}
	am, bm := a.Capacity[corev1.ResourceMemory], b.Capacity[corev1.ResourceMemory]
	if c := am.Cmp(bm); c != 0 {
		return c < 0
	}
	return a.Name < b.Name
}

// nodeGroupType resolves a node group's instance type as an EKS AL2023 node with the group's kubelet settings.
func nodeGroupType(ctx context.Context, s *Scenario, name string, kubelet *awsv1.KubeletConfiguration) (*cloudprovider.InstanceType, error) {
	for _, info := range s.InstanceTypes {
		if string(info.InstanceType) != name {
			continue
		}
		nc := &awsv1.EC2NodeClass{}
		nc.Name = "node-group"
		family := awsv1.AMIFamilyAL2023
		nc.Spec.AMIFamily = &family
		nc.Spec.Kubelet = kubelet
		return instancetype.NewDefaultResolver(s.Region).Resolve(ctx, info, s.Offerings[name], nc), nil
	}
	return nil, fmt.Errorf("instance type %s is not in the scenario", name)
}

// TableRow is what the AWS provider reads from its generated tables for one instance type
// (zz_generated.vpclimits.go Limits, zz_generated.bandwidth.go InstanceTypeBandwidthMegabits).
type TableRow struct {
	// BranchInterfaces: vpc.amazonaws.com/pod-eni capacity (0 unless IsTrunkingCompatible).
	BranchInterfaces int `json:"branchInterfaces,omitempty"`
	// IPv4PerInterface: vpc.amazonaws.com/PrivateIPv4Address on Windows is this minus 1.
	IPv4PerInterface int `json:"ipv4PerInterface,omitempty"`
	// NetworkBandwidthMbps: label karpenter.k8s.aws/instance-network-bandwidth.
	NetworkBandwidthMbps int64 `json:"networkBandwidthMbps,omitempty"`
}

func printTables() {
	rows := map[string]*TableRow{}
	row := func(name string) *TableRow {
		if rows[name] == nil {
			rows[name] = &TableRow{}
		}
		return rows[name]
	}
	for name, l := range instancetype.Limits {
		r := row(name)
		if l.IsTrunkingCompatible {
			r.BranchInterfaces = l.BranchInterface
		}
		r.IPv4PerInterface = l.IPv4PerInterface
	}
	for name, mbps := range instancetype.InstanceTypeBandwidthMegabits {
		row(name).NetworkBandwidthMbps = mbps
	}
	out, _ := json.MarshalIndent(rows, "", "  ")
	fmt.Println(string(out))
}

// undoFakeInit restores what the AWS provider sets up: the fake cloud provider's package init (imported only for
// state.NewCluster) replaces the reservation-ID label and adds test labels to the well-known set.
func undoFakeInit() {
	cloudprovider.ReservationIDLabel = awsv1.LabelCapacityReservationID
	cloudprovider.ReservedCapacityLabels.Delete(testv1alpha1.LabelReservationID)
	karpv1.WellKnownLabels.Delete(testv1alpha1.LabelReservationID, fake.LabelInstanceSize, fake.ExoticInstanceLabelKey, fake.IntegerInstanceLabelKey)
}
