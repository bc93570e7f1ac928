// Package fabric is Yomi's job fabric: long work (match games, tuning
// evaluations, HATETRIS Refine batches) cut into jobs that any number of
// workers, on any number of machines, pull from NATS JetStream.
//
// Start with Connect: with no URL it embeds a NATS server in the process (no
// TCP listener, JetStream storage in a temporary directory), so the
// single-machine default needs nothing installed; with a URL it joins an
// existing NATS server or cluster (for instance one started by
// `yomi fabric serve`). On the connection:
//
//   - Submit queues Jobs on a work-queue stream (YOMI_JOBS). A job is a kind,
//     a run id, a job id, a JSON payload and the Yomi version that must run
//     it; publishing is de-duplicated by (run, job id).
//   - A Worker pulls jobs, runs the Handler registered for their kind, stores
//     the Result on the results stream (YOMI_RESULTS, de-duplicated by job id)
//     and only then acknowledges the job. Long jobs send in-progress
//     heartbeats; a job whose worker died is redelivered after the ack wait.
//     A worker refuses (and hands back) jobs of another Yomi version.
//   - Results streams a run's results, from the first, so a coordinator that
//     was killed and started again sees what is already done.
//   - Cancel purges a run's queued jobs and marks the run stopped in the run
//     state bucket (yomi_runs), which running workers watch.
//   - Coordinate does a coordinator's whole pass over a run on top of these
//     (new attempt, stored results first, the rest queued and watched, local
//     workers, the queue dropped at the end): arena matches and HATETRIS
//     Refine use it.
//   - PutArtifact / GetArtifact keep files (nets, weights) in an object store
//     (yomi_artifacts) addressed by their SHA-256 digest.
//
// Serve runs a standalone JetStream node (the embedded server as a process).
// Game engines never import this package; the arena and the trainers do.
package fabric
