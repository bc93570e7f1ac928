// Command hello is the smallest js/wasm program, for wasmbuild's tests.
package main

func main() { println("hello") }
