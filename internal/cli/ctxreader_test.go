package cli

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"
)

func TestContextReader(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := ContextReader(ctx, pr)
	go pw.Write([]byte("hello\n"))
	buf := make([]byte, 64)
	n, err := r.Read(buf)
	if err != nil || string(buf[:n]) != "hello\n" {
		t.Fatalf("%q, %v", buf[:n], err)
	}
	// Nothing more comes: a cancel must end the blocked Read.
	time.AfterFunc(50*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() { _, err := r.Read(buf); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still blocked after the cancel")
	}
	if _, err := r.Read(buf); !errors.Is(err, context.Canceled) {
		t.Fatalf("after the cancel: %v", err)
	}
}
