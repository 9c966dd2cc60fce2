// Test peer only: prints Karpenter v1.14.1's own NodePool.Hash() and EC2NodeClass.Hash(caBundle) for objects read
// as JSON, so that the e2e differential can compare them with the TypeScript port (packages/cli/src/drift).
// Not part of the product. See test-tools/README.md.
//
// Input (stdin): one JSON document per line, {"kind":"NodePool"|"EC2NodeClass","object":{...},"caBundle":"..."}.
// Output (stdout): one line per input line: the hash (decimal, as in the karpenter.sh/nodepool-hash and
// karpenter.k8s.aws/ec2nodeclass-hash annotations), or "error: <message>".
// Only exported functions of the upstream modules are called.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	k8sjson "sigs.k8s.io/json"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

type request struct {
	Kind     string          `json:"kind"`
	Object   json.RawMessage `json:"object"`
	CABundle *string         `json:"caBundle,omitempty"`
}

func hash(line []byte) (result string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return "", err
	}
	switch req.Kind {
	case "NodePool":
		var np karpv1.NodePool
		// The client decodes as the API machinery does: case-sensitive field names, integers kept.
		if err := k8sjson.UnmarshalCaseSensitivePreserveInts(req.Object, &np); err != nil {
			return "", err
		}
		return np.Hash(), nil
	case "EC2NodeClass":
		var nc awsv1.EC2NodeClass
		if err := k8sjson.UnmarshalCaseSensitivePreserveInts(req.Object, &nc); err != nil {
			return "", err
		}
		return nc.Hash(req.CABundle), nil
	}
	return "", fmt.Errorf("unknown kind %q", req.Kind)
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		h, err := hash(in.Bytes())
		if err != nil {
			fmt.Fprintf(out, "error: %s\n", err)
			continue
		}
		fmt.Fprintln(out, h)
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
