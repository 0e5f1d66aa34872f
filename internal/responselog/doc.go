// Package responselog keeps elicit's response log: every render, surface
// decision and collected response, tagged with its template id
// ("template:<name>" or "dict" plus a hash of the form's shape), the host
// and the surface, so that answers can be compared across sessions and
// adoption measured.
//
// Writing is cheap and cannot fail a caller: Append adds one JSON line to
// an append-only journal under $ELICIT_HOME/log (O_APPEND under an
// advisory lock, no fsync) and turns any error into a warning. The SQLite
// database beside it (a pure-Go driver, so the binary stays static) is
// opened only by readers (elicit responses, elicit stats, the MCP server),
// which first ingest the journal: the journal is renamed aside under the
// lock, its records are inserted (a record id makes a repeat harmless) and
// the file is removed, once they are committed to a database that passed
// SQLite's quick_check. A damaged database is set aside and rebuilt from
// what can still be read in it and the journal; a locked one is a warning,
// and readers then answer from the journal alone. Records older than
// Log.Keep are removed as records are ingested; every file is 0600, and a
// journal or database that is not a regular file is refused.
//
// No record can make the log unreadable: Append starts every record on a
// line of its own (after a line torn by a writer that was killed) and never
// writes a line over 4 MiB (a response's longest answers are cut to fit,
// each ending with a marker; a record that cannot be cut is not logged,
// with a warning). Readers skip any line they cannot read (torn, not JSON,
// over 16 MiB) with a warning, and ingest the rest.
package responselog
