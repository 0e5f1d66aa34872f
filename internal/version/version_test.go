package version

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFrom(t *testing.T) {
	stamped := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261130120000-0123456789ab+dirty"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-30T12:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	tests := []struct {
		name           string
		bi             *debug.BuildInfo
		ver, rev, when string
		want           Info
	}{
		{"no build info", nil, "", "", "", Info{Version: "dev", Commit: "unknown", Date: "unknown"}},
		{"go build in a work tree", stamped, "", "", "",
			Info{Version: "0.0.0-20261130120000-0123456789ab+dirty", Commit: "0123456789abcdef0123456789abcdef01234567", Date: "2026-11-30T12:00:00Z", Modified: true}},
		{"go install module@v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "", "", "",
			Info{Version: "1.2.3", Commit: "unknown", Date: "unknown"}},
		{"devel without a stamp", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", "", "",
			Info{Version: "dev", Commit: "unknown", Date: "unknown"}},
		{"release ldflags win", stamped, "v1.4.0", "feedface", "2026-12-01T00:00:00Z",
			Info{Version: "1.4.0", Commit: "feedface", Date: "2026-12-01T00:00:00Z"}},
	}
	for _, tt := range tests {
		got := from(tt.bi, tt.ver, tt.rev, tt.when)
		if got.Go == "" || !strings.Contains(got.Platform, "/") {
			t.Errorf("%s: Go %q, platform %q", tt.name, got.Go, got.Platform)
		}
		got.Go, got.Platform = "", ""
		if got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestString(t *testing.T) {
	in := Info{Version: "1.2.3", Commit: "0123456789abcdef", Date: "2026-11-30T12:00:00Z", Modified: true, Go: "go1.26.8", Platform: "linux/amd64"}
	if got, want := in.String(), "elicit 1.2.3 (commit 0123456789ab+dirty, built 2026-11-30T12:00:00Z, go1.26.8 linux/amd64)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestJSONNamesEveryField checks that the JSON `elicit version --json`
// prints has every key its help lists, modified too when it is false.
func TestJSONNamesEveryField(t *testing.T) {
	data, err := json.Marshal(Info{Version: "1.2.3", Commit: "c", Date: "d", Go: "go1.26", Platform: "linux/amd64"})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"version", "commit", "date", "modified", "go", "platform"} {
		if _, ok := got[key]; !ok {
			t.Errorf("%s has no %q", data, key)
		}
	}
}
