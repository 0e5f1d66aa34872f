package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// HomeEnv names elicit's home directory, which holds what elicit keeps
// between runs (deliberations, the response log); default ~/.elicit.
const HomeEnv = "ELICIT_HOME"

// Home returns $ELICIT_HOME, or ~/.elicit.
func Home(getenv func(string) string) (string, error) {
	if h := getenv(HomeEnv); h != "" {
		return h, nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".elicit"), nil
	}
	return "", errors.New("neither ELICIT_HOME nor HOME is set (set ELICIT_HOME to the folder where elicit keeps its state)")
}

// HomeMode is the mode of elicit's home directory: only its owner may read
// it, since deliberations and answers can hold anything a user typed.
const HomeMode fs.FileMode = 0o700

// TightenHome makes an existing home directory private: a directory that
// others may read, write or enter is set to HomeMode, and notice says so
// in one line (empty when nothing changed). A missing directory is left to
// be created with HomeMode when something is first written there. Call it
// before writing under the home directory.
func TightenHome(dir string) (notice string, err error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("elicit home %s: %w", dir, err)
	case !fi.IsDir():
		return "", fmt.Errorf("elicit home %s is not a directory (set %s to a folder)", dir, HomeEnv)
	}
	old := fi.Mode().Perm()
	if old&^HomeMode == 0 {
		return "", nil
	}
	if err := os.Chmod(dir, HomeMode); err != nil {
		return "", fmt.Errorf("elicit home %s is mode %04o, open to other users, and could not be made %04o: %w (run: chmod 700 %s)", dir, old, HomeMode, err, dir)
	}
	return fmt.Sprintf("tightened elicit home %s from %04o to %04o: it holds your deliberations and answers", dir, old, HomeMode), nil
}
