// Package infile reads input from outside elicit (files a user or a
// repository names, and standard input) with a cap on its size.
//
// Only regular files are read: a directory, a named pipe (FIFO), a socket or
// a device is refused as soon as it is opened, which never blocks (a FIFO is
// opened non-blocking), so a repository that commits a file as a link to
// /dev/zero or a FIFO cannot make elicit grow without end or hang. Input over
// its cap is an error that names the input, the cap and what to do instead;
// it is never silently cut short. Standard input is read up to the same
// caps.
//
// Each kind of input has its own Limit, defined beside the code that reads
// it (forms, answers, templates, the settings file, method registries, ...);
// docs/limits.md, "Caps on input", lists them.
package infile
