// Command etcd is the upstream etcd server entry point
// (go.etcd.io/etcd/server/v3/main.go). That module cannot be built with
// `go install mod@version` because its go.mod has replace directives, so we
// build the same entry from our own module. Test peer only.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
