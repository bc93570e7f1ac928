// Package pc is Yomi's perfect-clear finder, compatible with solution-finder
// (sfinder): its pattern language (pattern.go), its field notation (field.go)
// and the finder itself (finder.go: Percent, Find; path.go: Paths).
//
// Start with Find, which answers "does a perfect clear of the given height
// exist for this field and queue", and Percent, which counts the sequences of
// a pattern for which one does. Placements are those reachable with SRS
// rotations, shifts and soft drop, computed bit-parallel (fastreach.go) and
// tested against a small breadth-first generator (reach.go). For up to 8
// placements Percent computes the sets of clearing piece orders per field
// once (seqset.go) and looks each sequence's hold orders up in them; longer
// cases (solcache.go) share the solutions found so far between sequences:
// a sequence one of them fits is answered by replaying it, and only the
// others are searched depth-first (each solution found joins the list).
// Paths beyond 8 placements enumerates the field's tilings once
// (tiling.go) and replays each against the sequences, instead of one
// enumeration per sequence.
package pc
