// Package atomicfile writes files so that a killed process leaves either the
// old file or the new one, never a half-written one. Run state, weights and
// nets that a later run resumes from are written through it.
package atomicfile

import "os"

// Write writes b to path through a synced temporary file (path + ".tmp") and
// a rename.
func Write(path string, b []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
