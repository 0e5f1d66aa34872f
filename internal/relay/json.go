package relay

import "encoding/json"

func mustJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // callData always encodes
	}
	return data
}
