// This file holds checking an output path before a long command computes
// what goes in it, so that a typo in --out costs nothing.

package cli

import (
	"errors"
	"io/fs"
	"os"
)

// CheckWritable reports whether a file can be written at path. It opens
// the file for writing without truncating it; a file it had to create for
// the check is removed again, so nothing is left behind if the command
// stops before writing.
func CheckWritable(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		f.Close()
		return os.Remove(path)
	}
	if errors.Is(err, fs.ErrExist) {
		if f, err = os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			return f.Close()
		}
	}
	return err
}
