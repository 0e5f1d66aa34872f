package responselog

import (
	"strconv"
	"time"

	"github.com/elicit/elicit/internal/jsonenc"
)

// appendJSON appends the record as one JSON object, as encoding/json would
// write it with the struct tags, without reflection: the CLI writes one
// record per call and would otherwise build the encoder at every start.
func (r *Record) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = field(b, "id", r.ID, false)
	b = append(b, `,"ts":"`...)
	b = r.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	b = field(b, "kind", r.Kind, true)
	b = field(b, "template_id", r.TemplateID, true)
	b = field(b, "shape", r.Shape, true)
	b = omitEmpty(b, "title", r.Title)
	b = field(b, "host", r.Host, true)
	b = omitEmpty(b, "host_version", r.HostVersion)
	b = field(b, "via", r.Via, true)
	b = omitEmpty(b, "surface", r.Surface)
	b = omitEmpty(b, "reason", r.Reason)
	b = strconv.AppendInt(append(b, `,"fields":`...), int64(r.Fields), 10)
	b = omitZero(b, "inferred", r.Inferred)
	b = omitZero(b, "kept", r.Kept)
	b = omitEmpty(b, "response_id", r.ResponseID)
	if len(r.Responses) > 0 {
		b = append(append(b, `,"responses":`...), r.Responses...)
	}
	b = omitZero(b, "problems", r.Problems)
	if len(r.Form) > 0 {
		b = append(append(b, `,"form":`...), r.Form...)
	}
	return append(b, '}')
}

func field(b []byte, key, value string, comma bool) []byte {
	if comma {
		b = append(b, ',')
	}
	b = append(append(append(b, '"'), key...), `":`...)
	return jsonenc.String(b, value)
}

func omitEmpty(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	return field(b, key, value, true)
}

func omitZero(b []byte, key string, n int) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(append(append(b, `,"`...), key...), `":`...), int64(n), 10)
}
