package publicapi

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoInternalTypesInPublicAPI parses every package outside internal/
// and reports each exported function, method, type, field, variable and
// constant whose type names a package under internal/: an embedding
// program could not build, give or name such a value.
func TestNoInternalTypesInPublicAPI(t *testing.T) {
	var found []string
	root := "../.."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "internal", "testdata", "node_modules", "e2e", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		for _, p := range internalUses(f) {
			found = append(found, rel+": "+p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Error(f)
	}
}

// internalUses names the exported declarations of f whose types use an
// internal package.
func internalUses(f *ast.File) []string {
	internal := map[string]bool{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !strings.Contains(path, "/internal/") {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		internal[name] = true
	}
	if len(internal) == 0 {
		return nil
	}
	uses := func(e ast.Expr) string {
		var name string
		ast.Inspect(e, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := s.X.(*ast.Ident); ok && internal[x.Name] && name == "" {
					name = x.Name + "." + s.Sel.Name
				}
			}
			return name == ""
		})
		return name
	}
	var out []string
	report := func(what string, e ast.Expr) {
		if e == nil {
			return
		}
		if n := uses(e); n != "" {
			out = append(out, fmt.Sprintf("%s uses %s", what, n))
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			name := d.Name.Name
			if d.Recv != nil {
				recv := receiverName(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				name = recv + "." + name
			}
			report(name, d.Type)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					reportType(s.Name.Name, s.Type, report)
				case *ast.ValueSpec:
					for i, n := range s.Names {
						if !n.IsExported() {
							continue
						}
						report(n.Name, s.Type)
						if s.Type == nil && i < len(s.Values) {
							v := s.Values[i]
							if u, ok := v.(*ast.UnaryExpr); ok {
								v = u.X
							}
							if c, ok := v.(*ast.CompositeLit); ok {
								report(n.Name, c.Type)
							}
						}
					}
				}
			}
		}
	}
	return out
}

// reportType reports the exported parts of a type declaration.
func reportType(name string, e ast.Expr, report func(string, ast.Expr)) {
	switch e := e.(type) {
	case *ast.StructType:
		for _, fl := range e.Fields.List {
			if len(fl.Names) == 0 { // embedded: its exported members are promoted
				report(name+" (embedded)", fl.Type)
			}
			for _, n := range fl.Names {
				if n.IsExported() {
					report(name+"."+n.Name, fl.Type)
				}
			}
		}
	case *ast.InterfaceType:
		for _, m := range e.Methods.List {
			report(name, m.Type)
		}
	default:
		report(name, e)
	}
}

func receiverName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverName(e.X)
	case *ast.IndexExpr:
		return receiverName(e.X)
	case *ast.IndexListExpr:
		return receiverName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}
