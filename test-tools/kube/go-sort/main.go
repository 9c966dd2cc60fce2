// Test peer only: prints the permutation Go's sort.Slice or sort.SliceStable makes of an array of integer keys,
// so packages/capacity/src/go-sort.e2e.ts can check its TypeScript goSortSlice against the real Go (Karpenter's
// scheduler.go sorts its in-flight NodeClaims with sort.Slice, whose order among ties is the algorithm's).
// Not part of the product. See test-tools/README.md.
//
// stdin: one JSON object a line, {"keys":[3,1,3,...],"stable":false}
// stdout: one JSON array a line, the original index of each element after the sort.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sort"
)

type request struct {
	Keys   []int `json:"keys"`
	Stable bool  `json:"stable"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println(runtime.Version())
		return
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var r request
		if err := json.Unmarshal(in.Bytes(), &r); err != nil {
			fmt.Fprintln(os.Stderr, "go-sort:", err)
			os.Exit(2)
		}
		perm := make([]int, len(r.Keys))
		for i := range perm {
			perm[i] = i
		}
		less := func(i, j int) bool { return r.Keys[perm[i]] < r.Keys[perm[j]] }
		if r.Stable {
			sort.SliceStable(perm, less)
		} else {
			sort.Slice(perm, less)
		}
		b, _ := json.Marshal(perm)
		out.Write(b)
		out.WriteByte('\n')
	}
}
