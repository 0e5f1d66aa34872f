// Package page is the widget as a local web page for a person at the
// machine: Serve shows a form on 127.0.0.1 behind a one-time token, checks
// every submission with form.Collect (problems go back beside their
// fields), and returns the validated response, or ErrNoAnswer when the
// person cancels or the context ends. It backs `elicit form open`.
//
// Only the page's own requests get through: a request without the token,
// or with a Host or Origin that is not the page's own, gets 403, and the
// page's Content-Security-Policy lets it talk to nothing but its server.
package page
