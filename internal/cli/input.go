// This file holds reading a command's main argument as text given inline, from
// @FILE or from standard input (-).

package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// ReadArg resolves a text argument in the common forms: "-" reads stdin,
// "@FILE" reads a file, anything else is the text itself.
func ReadArg(env *Env, arg string) (string, error) {
	switch {
	case arg == "-":
		b, err := io.ReadAll(env.Stdin)
		if err != nil {
			return "", fmt.Errorf("reading stdin: %w", err)
		}
		return string(b), nil
	case strings.HasPrefix(arg, "@"):
		b, err := os.ReadFile(arg[1:])
		if err != nil {
			return "", err
		}
		return string(b), nil
	default:
		return arg, nil
	}
}
