// Two tables of the built-in Kubernetes API types' `+enum` string fields, generated from the k8s.io/api Go sources
// (names and values only, no upstream text):
//
//   - default: the fields whose Go type is a (non-pointer) enum. The API server decodes "" in such a field as the Go
//     zero value, i.e. exactly like an absent field, while "" in a pointer field is a set value it checks against the
//     enum. The published OpenAPI does not say which is which.
//   - -values: every enum field (value, pointer, list item or map value) with its allowed values, as kube-openapi
//     publishes them in the live server's /openapi/v3 (the constants of the enum type, sorted); the pinned OpenAPI
//     files carry no `enum` keyword.
//
// Usage: go run . "$(go env GOMODCACHE)/k8s.io/api@v0.36.5" > ../../packages/validate/src/schema/value-enum-fields.ts
//
//	go run . -values "$(go env GOMODCACHE)/k8s.io/api@v0.36.5" > ../../packages/validate/src/schema/enum-values.ts
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

type field struct {
	def, json string
	pkg       string // import path of the package declaring the struct
	typ       ast.Expr
	imports   map[string]string
}

// typeRef is the "import/path.Name" of a named type expression, "" for anything else.
func typeRef(e ast.Expr, pkg string, imports map[string]string) string {
	switch t := e.(type) {
	case *ast.Ident:
		return pkg + "." + t.Name
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); ok && imports[x.Name] != "" {
			return imports[x.Name] + "." + t.Sel.Name
		}
	}
	return ""
}

// constDecl is a constant as written: its declared type (if any) and its value expression, to be resolved once
// every package is read (`AddressTypeIPv4 = AddressType(v1.IPv4Protocol)` refers to a constant of another package).
type constDecl struct {
	typ, val ast.Expr
	pkg      string
	imports  map[string]string
}

// resolve returns the string value and the type ref ("" when untyped) of a constant expression.
func resolve(e ast.Expr, pkg string, imports map[string]string, consts map[string]constDecl, depth int) (string, string, bool) {
	if depth > 10 {
		return "", "", false
	}
	switch v := e.(type) {
	case *ast.BasicLit:
		if v.Kind != token.STRING {
			return "", "", false
		}
		s, err := strconv.Unquote(v.Value)
		return s, "", err == nil
	case *ast.CallExpr: // a conversion T(x)
		if len(v.Args) != 1 {
			return "", "", false
		}
		s, _, ok := resolve(v.Args[0], pkg, imports, consts, depth+1)
		return s, typeRef(v.Fun, pkg, imports), ok
	case *ast.Ident, *ast.SelectorExpr:
		c, ok := consts[typeRef(v, pkg, imports)]
		if !ok {
			return "", "", false
		}
		s, t, ok := resolve(c.val, c.pkg, c.imports, consts, depth+1)
		if c.typ != nil {
			t = typeRef(c.typ, c.pkg, c.imports)
		}
		return s, t, ok
	}
	return "", "", false
}

// moduleOf splits a module-cache directory (".../k8s.io/api@v0.36.5[/sub/dir]") into the package path prefix of
// the directory ("k8s.io/api[/sub/dir]") and the module ("k8s.io/api@v0.36.5").
var moduleDir = regexp.MustCompile(`(k8s\.io/[^/@]+)@(v[^/]+)(/.*)?$`)

// walk reads the Go files under root (package path prefix base): enum types, string constants, struct fields.
func walk(root, base string, enums map[string]bool, consts map[string]constDecl, fields *[]field, inline map[string][]string) error {
	return filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(d.Name(), "zz_generated") || strings.HasSuffix(path, ".pb.go") {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := base
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		// OpenAPI definition names: the package path with its domain reversed ("k8s.io/api/core/v1" -> "io.k8s.api.core.v1")
		def := "io.k8s." + strings.ReplaceAll(strings.TrimPrefix(pkg, "k8s.io/"), "/", ".")
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		imports := map[string]string{}
		for _, imp := range file.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			name := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[name] = p
		}
		for _, decl := range file.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if ok && gen.Tok == token.CONST {
				for _, spec := range gen.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							consts[pkg+"."+name.Name] = constDecl{typ: vs.Type, val: vs.Values[i], pkg: pkg, imports: imports}
						}
					}
				}
				continue
			}
			if !ok || gen.Tok != token.TYPE {
				continue
			}
			for _, spec := range gen.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gen.Specs) == 1 {
					doc = gen.Doc
				}
				if id, ok := ts.Type.(*ast.Ident); ok && id.Name == "string" && doc != nil && strings.Contains(doc.Text(), "+enum") {
					enums[pkg+"."+ts.Name.Name] = true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, f := range st.Fields.List {
					if f.Tag == nil {
						continue
					}
					tag := reflect.StructTag(strings.Trim(f.Tag.Value, "`")).Get("json")
					if id, ok := f.Type.(*ast.Ident); ok && len(f.Names) == 0 && strings.Contains(tag, "inline") {
						inline[def+"."+ts.Name.Name] = append(inline[def+"."+ts.Name.Name], def+"."+id.Name)
						continue
					}
					if len(f.Names) != 1 {
						continue
					}
					name := strings.Split(tag, ",")[0]
					if name == "" || name == "-" {
						continue
					}
					*fields = append(*fields, field{def: def + "." + ts.Name.Name, json: name, pkg: pkg, typ: f.Type, imports: imports})
				}
			}
		}
		return nil
	})
}

func main() {
	args := os.Args[1:]
	values := len(args) >= 2 && args[0] == "-values"
	if values {
		args = args[1:]
	}
	if len(args) != 1 && !(values && len(args) > 1) {
		fmt.Fprintln(os.Stderr, "usage: value-enums <k8s.io/api module dir>\n       value-enums -values <k8s.io/api module dir> [more package dirs of the module cache...]")
		os.Exit(2)
	}
	enums := map[string]bool{}       // "k8s.io/api/core/v1.Protocol"
	consts := map[string]constDecl{} // "k8s.io/api/core/v1.ProtocolTCP"
	var fields []field
	var sources, dirs []string      // modules, and the directories read relative to the module cache
	inline := map[string][]string{} // struct definition -> definitions it embeds with `json:",inline"`
	var err error
	for _, root := range args {
		m := moduleDir.FindStringSubmatch(filepath.ToSlash(filepath.Clean(root)))
		if m == nil {
			fmt.Fprintf(os.Stderr, "%s: not a k8s.io module directory of the Go module cache\n", root)
			os.Exit(2)
		}
		sources = append(sources, m[1]+"@"+m[2])
		dirs = append(dirs, m[1]+"@"+m[2]+m[3])
		err = walk(root, m[1]+m[3], enums, consts, &fields, inline)
		if err != nil {
			break
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if values {
		// the values of each enum type: its constants, in any package read
		constants := map[string][]string{}
		names := make([]string, 0, len(consts))
		for name := range consts {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			c := consts[name]
			v, t, ok := resolve(c.val, c.pkg, c.imports, consts, 0)
			if c.typ != nil {
				t = typeRef(c.typ, c.pkg, c.imports)
			}
			if ok && enums[t] {
				constants[t] = append(constants[t], v)
			}
		}
		writeValues(sources, dirs, enums, constants, fields, inline)
		return
	}
	out := map[string][]string{}
	for _, f := range fields {
		var ref string
		switch t := f.typ.(type) {
		case *ast.Ident: // a value of a type of the same package (a *T pointer is a StarExpr: skipped)
			ref = f.pkg + "." + t.Name
		case *ast.SelectorExpr:
			if x, ok := t.X.(*ast.Ident); ok {
				ref = f.imports[x.Name] + "." + t.Sel.Name
			}
		}
		if enums[ref] {
			out[f.def] = append(out[f.def], f.json)
		}
	}
	own := map[string][]string{} // before embedding, so the walk order of inline does not matter
	for def, v := range out {
		own[def] = v
	}
	for def := range inline {
		for _, e := range embeddedIn(def, inline) {
			out[def] = append(out[def], own[e]...)
		}
		if len(out[def]) == 0 {
			delete(out, def)
		}
	}
	defs := make([]string, 0, len(out))
	for def, v := range out {
		sort.Strings(v)
		defs = append(defs, def)
	}
	sort.Strings(defs)
	src := sources[0]
	var b strings.Builder
	fmt.Fprintf(&b, "// Generated by test-tools/value-enums from %s (do not edit): built-in fields whose Go type is a non-pointer enum string.\n", src)
	fmt.Fprintf(&b, "export const VALUE_ENUM_SOURCE = %q;\n\n", src)
	b.WriteString("export const VALUE_ENUM_FIELDS: Readonly<Record<string, readonly string[]>> = {\n")
	for _, def := range defs {
		quoted, _ := json.Marshal(out[def])
		fmt.Fprintf(&b, "  %q: %s,\n", def, strings.ReplaceAll(string(quoted), ",", ", "))
	}
	b.WriteString("};\n")
	os.Stdout.WriteString(b.String())
}

// writeValues prints the table of every enum field and its allowed values (TypeScript), the way kube-openapi
// publishes them: the field's type, a pointer to it, a list of it or a map to it is the enum type; values are
// the distinct constants of that type, sorted as quoted Go strings.
func writeValues(sources, dirs []string, enums map[string]bool, constants map[string][]string, fields []field, inline map[string][]string) {
	out := map[string]map[string][]string{}
	for _, f := range fields {
		t := f.typ
		if star, ok := t.(*ast.StarExpr); ok {
			t = star.X
		}
		switch c := t.(type) {
		case *ast.ArrayType:
			t = c.Elt
		case *ast.MapType:
			t = c.Value
		}
		ref := typeRef(t, f.pkg, f.imports)
		if !enums[ref] {
			continue
		}
		seen := map[string]bool{}
		var quoted []string
		for _, v := range constants[ref] {
			if !seen[v] {
				seen[v] = true
				quoted = append(quoted, strconv.Quote(v))
			}
		}
		sort.Strings(quoted)
		vals := make([]string, len(quoted))
		for i, q := range quoted {
			vals[i], _ = strconv.Unquote(q)
		}
		if out[f.def] == nil {
			out[f.def] = map[string][]string{}
		}
		out[f.def][f.json] = vals
	}
	own := map[string]map[string][]string{} // before embedding, so the walk order of inline does not matter
	for def, v := range out {
		own[def] = v
	}
	for def := range inline {
		for _, e := range embeddedIn(def, inline) {
			for k, v := range own[e] {
				if out[def] == nil {
					out[def] = map[string][]string{}
				}
				out[def][k] = v
			}
		}
	}
	defs := make([]string, 0, len(out))
	for def := range out {
		defs = append(defs, def)
	}
	sort.Strings(defs)
	var b strings.Builder
	fmt.Fprintf(&b, "// Generated by test-tools/value-enums from %s (do not edit): every built-in field\n", strings.Join(sources, " and "))
	b.WriteString("// whose Go type is an enum string (or a pointer, list or map of one), with its allowed values as kube-apiserver\n")
	b.WriteString("// publishes them in /openapi/v3. Regenerate:\n//   cd test-tools/value-enums && go run . -values")
	for _, d := range dirs {
		fmt.Fprintf(&b, " \"$(go env GOMODCACHE)/%s\"", d)
	}
	b.WriteString(" > ../../packages/validate/src/schema/enum-values.ts\n")
	fmt.Fprintf(&b, "export const ENUM_VALUES_SOURCE = %q;\n\n", sources[0])
	b.WriteString("export const ENUM_VALUES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {\n")
	for _, def := range defs {
		fmt.Fprintf(&b, "  %q: {\n", def)
		names := make([]string, 0, len(out[def]))
		for k := range out[def] {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			quoted, _ := json.Marshal(out[def][k])
			fmt.Fprintf(&b, "    %s: %s,\n", jsKey(k), strings.ReplaceAll(string(quoted), "\",\"", "\", \""))
		}
		b.WriteString("  },\n")
	}
	b.WriteString("};\n")
	os.Stdout.WriteString(b.String())
}

// embeddedIn lists every definition def embeds inline, directly or through another embedded one, so the result
// does not depend on the order the map is walked in.
func embeddedIn(def string, inline map[string][]string) []string {
	var all []string
	for _, e := range inline[def] {
		all = append(all, e)
		all = append(all, embeddedIn(e, inline)...)
	}
	return all
}

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func jsKey(k string) string {
	if identifier.MatchString(k) {
		return k
	}
	return strconv.Quote(k)
}
