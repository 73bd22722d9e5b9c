/**
 * The coordinator half of STIP-31: one {@link
 * org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEventLoop} per source
 * enumerator, its {@link
 * org.apache.seatunnel.engine.managed.source.coordinator.SourceAssignmentTracker}, the epoch-fenced
 * {@link org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorSchedulerImpl} and the
 * member's shared {@link
 * org.apache.seatunnel.engine.managed.source.coordinator.SourceAsyncWorkerPool}.
 *
 * <p>Threading: every engine callback becomes a command offered to the loop's bounded queue and the
 * caller returns at once. A serialized drain task on an injected {@link
 * java.util.concurrent.Executor} is the only code that touches the enumerator and the tracker.
 * Worker threads and timers never touch them either: they post completions back to the loop.
 *
 * <p>Ownership: an assignment stays owned by the coordinator (tracker) from the moment the
 * enumerator hands a split out until a reader's checkpoint metadata proves the command was applied
 * before barrier N <em>and</em> global checkpoint N completed. Admission and apply acks are flow
 * control only.
 *
 * <p>The reader contract this package relies on (implemented by the reader runtime, mirrored by the
 * test stand-ins):
 *
 * <ol>
 *   <li>Deduplicate by {@code commandId} within an attempt; answer {@code STALE_TARGET} for another
 *       attempt.
 *   <li>Defer a command whose {@code coordinatorCutId} c is not 0 until the reader has taken its
 *       own barrier c (or a later one), or received {@code CHECKPOINT_ABORTED} for checkpoint c.
 *       {@code CHECKPOINT_ABORTED} itself carries cut 0 and the checkpoint id as an 8-byte payload.
 *   <li>Report, per coordinator epoch, the highest applied {@code senderSequence} and the sequences
 *       at or below it that were not applied (gaps) as of each barrier and of each restore: see
 *       {@link org.apache.seatunnel.engine.managed.source.coordinator.ReaderInclusionReport}.
 *   <li>{@code SPLIT_ASSIGNMENT} carries one or more splits of one reader, each serialized by the
 *       connector's split serializer ({@code AssignmentPayload} version 2); the tracker keeps the
 *       command's splits as one assignment.
 *   <li>Sender sequences are contiguous per (coordinator epoch, target subtask); when a new reader
 *       attempt registers, the coordinator continues its sequence right after the watermark the
 *       attempt restored (or from 1 without restored state), so a reader never sees a sequence hole
 *       it cannot name. {@code SOURCE_EVENT} commands are unsequenced (sequence 0).
 * </ol>
 *
 * <p>"Hazard N" and "invariant N" in this package's comments are numbered as in {@code
 * docs/en/architecture.md}.
 */
package org.apache.seatunnel.engine.managed.source.coordinator;
