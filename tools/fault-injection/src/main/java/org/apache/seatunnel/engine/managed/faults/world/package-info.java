/**
 * A deterministic in-process "mini engine" that runs the real Lane A coordinator loop and real
 * reader attempts (the runtime's {@code ReaderAttempt}, polled through the runtime's {@code
 * ReaderDriver} as the Zeta host polls it) the way Zeta 2.3.8 drives them, one step at a time on
 * one thread: a manual executor for the coordinator, manual time, a transport with per-target FIFO
 * queues like the runtime's command sender, global checkpoints that snapshot the coordinator first
 * and reach readers later (hazard 1), restore of the whole pipeline from the last completed
 * checkpoint on any failure (reader states back through {@code addSplitsBack} with their runtime
 * metadata, new reader attempts, with the same or a changed parallelism), and a sink that commits
 * rows only with completed checkpoints. Faults from {@code
 * org.apache.seatunnel.engine.managed.faults} are injected at every STIP-31 point; the engine
 * checks split ownership after every restore and exactly-once of committed rows at the end.
 *
 * <p>"Hazard N" and "invariant N" in this package's comments are numbered as in {@code
 * docs/en/architecture.md}.
 */
package org.apache.seatunnel.engine.managed.faults.world;
