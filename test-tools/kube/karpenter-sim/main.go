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
}

type NodeClassInput struct {
	NodeClass *awsv1.EC2NodeClass `json:"nodeClass"`
	// Zones the EC2NodeClass's subnets are in (status.subnets); empty: every zone.
	Zones []string `json:"zones"`
}

type ExistingNodeInput struct {
	Node *corev1.Node  `json:"node"`
	Pods []*corev1.Pod `json:"pods"`
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
			r.InstanceTypes[name] = lo(its)
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

func lo(its []*cloudprovider.InstanceType) []InstanceTypeOut {
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

// Per-process caches: many scenarios share EC2NodeClasses.
var resolvedCache = map[string][]*cloudprovider.InstanceType{}

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
		key, _ := json.Marshal([]any{s.Region, nc.Spec, nc.Status.Subnets, len(s.InstanceTypes), s.OnDemandPrices == nil})
		if its, ok := resolvedCache[string(key)]; ok && !s.InstanceTypesOnly {
			out[nc.Name] = its
			continue
		}
		resolver := instancetype.NewDefaultResolver(s.Region)
		var its []*cloudprovider.InstanceType
		for _, info := range s.InstanceTypes {
			its = append(its, resolver.Resolve(ctx, info, s.Offerings[string(info.InstanceType)], nc))
		}
		provider := offering.NewDefaultProvider(prices, nil, nil, awscache.NewUnavailableOfferings(),
			cache.New(awscache.DefaultTTL, awscache.DefaultCleanupInterval), noShift{}, nil)
		its = provider.InjectOfferings(ctx, its, infos, nc, allZones)
		resolvedCache[string(key)] = its
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
		if err := client.Create(ctx, node); err != nil {
			return r, fmt.Errorf("node %s: %w", node.Name, err)
		}
		if err := cluster.UpdateNode(ctx, node); err != nil {
			return r, fmt.Errorf("node %s: %w", node.Name, err)
		}
		for _, p := range n.Pods {
			pod := p.DeepCopy()
			pod.Spec.NodeName = node.Name
			pod.Status.Phase = corev1.PodRunning
			if err := client.Create(ctx, pod); err != nil {
				return r, fmt.Errorf("pod %s: %w", pod.Name, err)
			}
			if err := cluster.UpdatePod(ctx, pod); err != nil {
				return r, fmt.Errorf("pod %s: %w", pod.Name, err)
			}
		}
	}
	var stateNodes []*state.StateNode
	for n := range cluster.Nodes() {
		stateNodes = append(stateNodes, n.DeepCopy())
	}
	sort.Slice(stateNodes, func(i, j int) bool { return stateNodes[i].Name() < stateNodes[j].Name() })
	pods := make([]*corev1.Pod, 0, len(s.Pods))
	for _, p := range s.Pods {
		pod := p.DeepCopy()
		pod.Status.Phase = corev1.PodPending
		if err := client.Create(ctx, pod); err != nil {
			return r, fmt.Errorf("pod %s: %w", pod.Name, err)
		}
		pods = append(pods, pod)
	}
	// The provisioner hands the scheduler its NodePools heaviest first (provisioner.go: nodepoolutils.OrderByWeight).
	nodePools := append([]*karpv1.NodePool{}, s.NodePools...)
	nodepoolutils.OrderByWeight(nodePools)
	topology, err := scheduling.NewTopology(ctx, client, cluster, stateNodes, nodePools, instanceTypes, pods)
	if err != nil {
		return r, fmt.Errorf("topology: %w", err)
	}
	scheduler := scheduling.NewScheduler(ctx, client, nodePools, cluster, stateNodes, topology, instanceTypes, s.DaemonSetPods,
		events.NewRecorder(&record.FakeRecorder{}), clk, nil, nil)
	results, err := scheduler.Solve(ctx, pods)
	if err != nil {
		return r, fmt.Errorf("solve: %w", err)
	}
	for _, nc := range results.NewNodeClaims {
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
		r.NodeClaims = append(r.NodeClaims, o)
	}
	for _, en := range results.ExistingNodes {
		if len(en.Pods) == 0 {
			continue
		}
		o := ExistingOut{Node: en.Name()}
		for _, p := range en.Pods {
			o.Pods = append(o.Pods, p.Namespace+"/"+p.Name)
		}
		r.ExistingNodes = append(r.ExistingNodes, o)
	}
	for p, e := range results.PodErrors {
		r.PodErrors[p.Namespace+"/"+p.Name] = strings.TrimSpace(e.Error())
	}
	return r, nil
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
