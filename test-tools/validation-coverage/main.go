// Lists every exported Validate* function of k8s.io/kubernetes pkg/apis/*/validation (the API server's hand-written
// validation) for the kinds served by default, as JSON: group, kind (the served kind whose name the function's
// name starts with, "" for a shared helper), function, file and line. Names and positions only: no upstream text
// is copied. Standard library only: it parses the Go sources of the module cache.
//
// A kind is served by default when k8s.io/api registers it in a GA version (v1, v2) of its group (register.go,
// AddKnownTypes); lists and *Options types are not kinds. Functions whose name starts with a kind that is not
// served by default (alpha and beta kinds, e.g. StorageVersionMigration) are left out; so are groups without a
// kind served by default (apiserverinternal, storagemigration).
//
// Usage (from this folder; both modules are in the module cache after test-tools/build.sh kube-apiserver):
//
//	go run . "$(go env GOMODCACHE)/k8s.io/kubernetes@v1.36.5" "$(go env GOMODCACHE)/k8s.io/api@v0.36.5" \
//	  > ../../packages/validate/src/native/coverage/entry-points.json
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

type entry struct {
	Group    string `json:"group"`
	Kind     string `json:"kind"`
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int    `json:"line"`
}

var gaVersion = regexp.MustCompile(`^v\d+$`)

// Folders of k8s.io/api that are not API groups served as resources.
var notServed = map[string]bool{"admission": true, "apidiscovery": true, "imagepolicy": true, "extensions": true}

// servedKinds reads register.go of every GA version of every group: group folder -> kinds, and every kind of any version.
func servedKinds(apiDir string) (map[string]map[string]bool, map[string]bool, error) {
	served := map[string]map[string]bool{}
	all := map[string]bool{}
	groups, err := os.ReadDir(apiDir)
	if err != nil {
		return nil, nil, err
	}
	for _, g := range groups {
		if !g.IsDir() || notServed[g.Name()] {
			continue
		}
		versions, _ := os.ReadDir(filepath.Join(apiDir, g.Name()))
		for _, v := range versions {
			file := filepath.Join(apiDir, g.Name(), v.Name(), "register.go")
			if _, err := os.Stat(file); err != nil {
				continue
			}
			kinds, err := registeredKinds(file)
			if err != nil {
				return nil, nil, err
			}
			for _, k := range kinds {
				all[k] = true
				if gaVersion.MatchString(v.Name()) {
					if served[g.Name()] == nil {
						served[g.Name()] = map[string]bool{}
					}
					served[g.Name()][k] = true
				}
			}
		}
	}
	return served, all, nil
}

// registeredKinds returns the types passed as &T{} to AddKnownTypes in a register.go, without lists and options.
func registeredKinds(file string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		return nil, err
	}
	var kinds []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "AddKnownTypes" {
			return true
		}
		for _, a := range call.Args {
			u, ok := a.(*ast.UnaryExpr)
			if !ok {
				continue
			}
			lit, ok := u.X.(*ast.CompositeLit)
			if !ok {
				continue
			}
			if id, ok := lit.Type.(*ast.Ident); ok && !strings.HasSuffix(id.Name, "List") && !strings.HasSuffix(id.Name, "Options") {
				kinds = append(kinds, id.Name)
			}
		}
		return true
	})
	return kinds, nil
}

// kindOf is the longest kind (served or not) whose name starts the function's name after "Validate".
func kindOf(name string, kinds map[string]bool) string {
	rest := strings.TrimPrefix(name, "Validate")
	best := ""
	for k := range kinds {
		if strings.HasPrefix(rest, k) && len(k) > len(best) {
			best = k
		}
	}
	return best
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run . KUBERNETES_MODULE_DIR API_MODULE_DIR")
		os.Exit(2)
	}
	k8sDir, apiDir := os.Args[1], os.Args[2]
	served, all, err := servedKinds(apiDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// the events.k8s.io Event is validated by core (events.go): kinds of every served group count for every package
	servedAny := map[string]bool{}
	for _, ks := range served {
		for k := range ks {
			servedAny[k] = true
		}
	}
	files, err := filepath.Glob(filepath.Join(k8sDir, "pkg", "apis", "*", "validation", "*.go"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	entries := []entry{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		group := filepath.Base(filepath.Dir(filepath.Dir(file)))
		if served[group] == nil {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || !strings.HasPrefix(fn.Name.Name, "Validate") {
				continue
			}
			kind := kindOf(fn.Name.Name, all)
			if kind != "" && !servedAny[kind] {
				continue
			}
			rel, _ := filepath.Rel(k8sDir, file)
			entries = append(entries, entry{Group: group, Kind: kind, Function: fn.Name.Name, File: filepath.ToSlash(rel), Line: fset.Position(fn.Pos()).Line})
		}
	}
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Function < b.Function
	})
	out, _ := json.MarshalIndent(entries, "", "  ")
	fmt.Println(string(out))
}
