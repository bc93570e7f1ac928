// Package pc is Yomi's perfect-clear finder, compatible with solution-finder
// (sfinder): its pattern language (pattern.go), its field notation (field.go)
// and the finder itself (finder.go: Percent, Find).
//
// Start with Find, which answers "does a perfect clear of the given height
// exist for this field and queue", and Percent, which counts the sequences of
// a pattern for which one does. Placements are those reachable with SRS
// rotations, shifts and soft drop (reach.go, a small self-contained move
// generator over the clear area; the engine's movegen was not yet available).
package pc
