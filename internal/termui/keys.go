package termui

import (
	"bytes"
	"io"
	"time"
	"unicode/utf8"
)

// Code is the kind of a key press.
type Code int

// The keys the widgets understand. Control keys with an editing meaning
// arrive as that meaning: Ctrl-A is Home, Ctrl-E is End.
const (
	KeyRune      Code = iota // a printable character, in Key.Rune
	KeyEnter                 // Enter (CR or LF)
	KeyAltEnter              // Alt-Enter (ESC CR)
	KeyTab                   // Tab
	KeyBackTab               // Shift-Tab
	KeyBackspace             // Backspace (DEL or Ctrl-H)
	KeyDelete                // Delete
	KeyUp                    // arrow up
	KeyDown                  // arrow down
	KeyLeft                  // arrow left
	KeyRight                 // arrow right
	KeyHome                  // Home, Ctrl-A
	KeyEnd                   // End, Ctrl-E
	KeyEsc                   // a lone Escape
	KeyCtrlC                 // Ctrl-C
	KeyCtrlD                 // Ctrl-D
	KeyKillStart             // Ctrl-U: delete to the start of the line
	KeyKillEnd               // Ctrl-K: delete to the end of the line
	KeyKillWord              // Ctrl-W: delete the word before the cursor
	KeyPaste                 // a bracketed paste, its text in Key.Text
	KeyUnknown               // anything else (ignored)
)

// Key is one key press, or one paste.
type Key struct {
	Code Code
	Rune rune
	// Text is what was pasted (KeyPaste), as the terminal sent it.
	Text string
}

// maxPaste caps the text of one paste (1 MiB, the cap of one answer);
// the rest is dropped.
const maxPaste = 1 << 20

// pasteEnd ends a bracketed paste (ESC [ 200 ~ starts it).
const pasteEnd = "\x1b[201~"

// escWait is how long a lone Escape waits for the rest of an escape
// sequence: terminals send a sequence in one write, a person cannot type
// the next key this fast.
const escWait = 30 * time.Millisecond

// keyReader turns the bytes of a raw terminal into key presses. A goroutine
// reads the input, so that a lone Escape can be told from the start of an
// escape sequence by waiting briefly for more.
type keyReader struct {
	chunks chan []byte
	buf    []byte
	err    error
	// stop, when closed, ends the reading with ErrCancelled (a signal).
	stop <-chan struct{}
}

func newKeyReader(r io.Reader) *keyReader {
	k := &keyReader{chunks: make(chan []byte, 16)}
	go func() {
		for {
			b := make([]byte, 256)
			n, err := r.Read(b)
			if n > 0 {
				k.chunks <- b[:n]
			}
			if err != nil {
				close(k.chunks)
				return
			}
		}
	}()
	return k
}

// fill waits for more input: forever when wait is negative, else at most
// wait. It reports whether input arrived.
func (k *keyReader) fill(wait time.Duration) bool {
	if k.err != nil {
		return false
	}
	var timeout <-chan time.Time
	if wait >= 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case b, ok := <-k.chunks:
		if !ok {
			k.err = io.EOF
			return false
		}
		k.buf = append(k.buf, b...)
		return true
	case <-k.stop:
		k.err = ErrCancelled
		return false
	case <-timeout:
		return false
	}
}

// byte returns the next byte, waiting as fill does.
func (k *keyReader) byte(wait time.Duration) (byte, bool) {
	for len(k.buf) == 0 {
		if !k.fill(wait) {
			return 0, false
		}
	}
	b := k.buf[0]
	k.buf = k.buf[1:]
	return b, true
}

// ReadKey returns the next key press; at the end of the input it returns
// io.EOF, once stopped ErrCancelled.
func (k *keyReader) ReadKey() (Key, error) {
	b, ok := k.byte(-1)
	if !ok {
		return Key{}, k.err
	}
	switch b {
	case '\r', '\n':
		return Key{Code: KeyEnter}, nil
	case '\t':
		return Key{Code: KeyTab}, nil
	case 0x7f, 0x08:
		return Key{Code: KeyBackspace}, nil
	case 0x01:
		return Key{Code: KeyHome}, nil
	case 0x05:
		return Key{Code: KeyEnd}, nil
	case 0x02:
		return Key{Code: KeyLeft}, nil
	case 0x06:
		return Key{Code: KeyRight}, nil
	case 0x0e:
		return Key{Code: KeyDown}, nil
	case 0x10:
		return Key{Code: KeyUp}, nil
	case 0x03:
		return Key{Code: KeyCtrlC}, nil
	case 0x04:
		return Key{Code: KeyCtrlD}, nil
	case 0x15:
		return Key{Code: KeyKillStart}, nil
	case 0x0b:
		return Key{Code: KeyKillEnd}, nil
	case 0x17:
		return Key{Code: KeyKillWord}, nil
	case 0x1b:
		return k.escape(), nil
	}
	if b < 0x20 {
		return Key{Code: KeyUnknown}, nil
	}
	return k.utf8(b), nil
}

// utf8 completes the character that starts with b.
func (k *keyReader) utf8(b byte) Key {
	if b < utf8.RuneSelf {
		return Key{Code: KeyRune, Rune: rune(b)}
	}
	p := []byte{b}
	for !utf8.FullRune(p) && len(p) < utf8.UTFMax {
		c, ok := k.byte(escWait)
		if !ok {
			break
		}
		p = append(p, c)
	}
	r, _ := utf8.DecodeRune(p)
	if r == utf8.RuneError {
		return Key{Code: KeyUnknown}
	}
	return Key{Code: KeyRune, Rune: r}
}

// escape reads the rest of an escape sequence (CSI "ESC [", SS3 "ESC O",
// Alt-key "ESC x"), or returns a lone Escape.
func (k *keyReader) escape() Key {
	b, ok := k.byte(escWait)
	if !ok {
		return Key{Code: KeyEsc}
	}
	switch b {
	case '[', 'O':
	case '\r', '\n':
		return Key{Code: KeyAltEnter}
	case 0x1b:
		k.buf = append([]byte{0x1b}, k.buf...)
		return Key{Code: KeyEsc}
	default:
		return Key{Code: KeyUnknown} // Alt-<key>
	}
	// Parameters and intermediates, then one final byte 0x40-0x7e.
	var params []byte
	for {
		c, ok := k.byte(escWait)
		if !ok {
			return Key{Code: KeyUnknown}
		}
		if c >= 0x40 && c <= 0x7e {
			if c == '~' && string(params) == "200" {
				return k.paste()
			}
			return csiKey(c, string(params))
		}
		params = append(params, c)
	}
}

// paste reads a bracketed paste up to its end: the text arrives as one
// key, so a pasted newline is not an Enter.
func (k *keyReader) paste() Key {
	var text []byte
	for {
		c, ok := k.byte(-1)
		if !ok { // the input ended or was stopped inside the paste
			break
		}
		if len(text) < maxPaste+len(pasteEnd) {
			text = append(text, c)
		} else { // over the cap: keep only enough to see the end
			copy(text[maxPaste:], text[maxPaste+1:])
			text[len(text)-1] = c
		}
		if c == '~' && bytes.HasSuffix(text, []byte(pasteEnd)) {
			text = text[:len(text)-len(pasteEnd)]
			break
		}
	}
	return Key{Code: KeyPaste, Text: string(text[:min(len(text), maxPaste)])}
}

func csiKey(final byte, params string) Key {
	switch final {
	case 'A':
		return Key{Code: KeyUp}
	case 'B':
		return Key{Code: KeyDown}
	case 'C':
		return Key{Code: KeyRight}
	case 'D':
		return Key{Code: KeyLeft}
	case 'H':
		return Key{Code: KeyHome}
	case 'F':
		return Key{Code: KeyEnd}
	case 'Z':
		return Key{Code: KeyBackTab}
	case '~':
		switch params {
		case "1", "7":
			return Key{Code: KeyHome}
		case "4", "8":
			return Key{Code: KeyEnd}
		case "3":
			return Key{Code: KeyDelete}
		}
	}
	return Key{Code: KeyUnknown}
}
