package cli

import (
	"reflect"
	"testing"
)

// TestBrowserCommands reads $BROWSER as the convention has it: a
// colon-separated list, arguments split at spaces, %s replaced by the URL
// (else the URL appended), %% a literal '%'.
func TestBrowserCommands(t *testing.T) {
	const url = "http://127.0.0.1:8080/tok/"
	tests := []struct {
		env  string
		want [][]string
	}{
		{"firefox", [][]string{{"firefox", url}}},
		{"/usr/bin/true --new-window %s", [][]string{{"/usr/bin/true", "--new-window", url}}},
		{"w3m:lynx", [][]string{{"w3m", url}, {"lynx", url}}},
		{"nope --x %s:chromium --app=%s", [][]string{{"nope", "--x", url}, {"chromium", "--app=" + url}}},
		{"open -a  Safari ", [][]string{{"open", "-a", "Safari", url}}},
		{"b --pct=100%% %s", [][]string{{"b", "--pct=100%", url}}},
		{"b --pct=100%%", [][]string{{"b", "--pct=100%", url}}},
		{"::  :x", [][]string{{"x", url}}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := browserCommands(tt.env, url); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("browserCommands(%q) = %q; want %q", tt.env, got, tt.want)
		}
	}
}
