// Test peer only: Go's own sort.Slice / sort.SliceStable permutations for packages/capacity's go-sort.ts
// (e2e property test). Not part of the product. See test-tools/README.md.
module testtools.local/kube/go-sort

go 1.26.6
