// Package config reads and writes elicit's per-project settings file,
// elicit.config.json, and applies the environment's session overrides.
//
// The file is a JSON object; elicit owns the keys it documents and keeps
// every other key as it was. Writes are atomic (temp file and rename) and
// never replace a file that is not a JSON object.
package config
