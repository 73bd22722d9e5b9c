/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *    http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.seatunnel.engine.managed.source.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;

/**
 * Every option of the {@code seatunnel.engine.managed-source} section, declared once. Defaults are
 * STIP-31's "Initial production defaults". None is connector-overridable and none is
 * hot-reloadable: they are read when a deployment is planned.
 */
public final class ManagedSourceOptions {

    /** The section's path under {@code seatunnel.engine} in {@code seatunnel.yaml}. */
    public static final String SECTION = "managed-source";

    public static final Option<Boolean> ENABLED =
            Options.key("enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Global switch for Lane A. Off (the default) runs every job on Lane B."
                                    + " Flipping it affects new deployments and restores only;"
                                    + " running tasks never switch lane.");

    public static final Option<List<String>> ALLOWED_JOBS =
            Options.key("allowed-jobs")
                    .listType()
                    .defaultValue(Collections.<String>emptyList())
                    .withDescription(
                            "Exact job names that may run on Lane A. Empty allows no job. '*' allows"
                                    + " every job.");

    public static final Option<List<String>> ALLOWED_CONNECTORS =
            Options.key("allowed-connectors")
                    .listType()
                    .defaultValue(Collections.<String>emptyList())
                    .withDescription(
                            "Exact connector factory identifiers that may run on Lane A. Empty"
                                    + " allows no connector. '*' allows every managed connector.");

    public static final Option<LaneFallback> INELIGIBLE_FALLBACK =
            Options.key("ineligible-fallback")
                    .enumType(LaneFallback.class)
                    .defaultValue(LaneFallback.LANE_B)
                    .withDescription(
                            "What an allowlisted job gets when its connector cannot run on Lane A"
                                    + " (no managed capability, or a protocol mismatch): LANE_B runs"
                                    + " it on the legacy lane and logs why; FAIL rejects the job"
                                    + " at planning with the reason.");

    public static final Option<Integer> MAILBOX_MAX_COMMANDS =
            Options.key("reader-mailbox.max-commands")
                    .intType()
                    .defaultValue(1024)
                    .withDescription("Normal command capacity of one reader mailbox.");

    public static final Option<Long> MAILBOX_MAX_BYTES =
            Options.key("reader-mailbox.max-bytes")
                    .longType()
                    .defaultValue(4L * 1024 * 1024)
                    .withDescription("Normal payload-byte capacity of one reader mailbox.");

    public static final Option<Integer> MAILBOX_RESERVED_COMMANDS =
            Options.key("reader-mailbox.reserved-control-commands")
                    .intType()
                    .defaultValue(64)
                    .withDescription(
                            "Commands reserved for checkpoint, graceful-close, checkpoint-callback"
                                    + " and assignment-ack controls once normal capacity is full.");

    public static final Option<Long> MAILBOX_RESERVED_BYTES =
            Options.key("reader-mailbox.reserved-control-bytes")
                    .longType()
                    .defaultValue(256L * 1024)
                    .withDescription("Payload bytes reserved for the same controls.");

    public static final Option<Long> WORKER_MAILBOX_MAX_BYTES =
            Options.key("worker.mailbox-max-bytes")
                    .longType()
                    .defaultValue(256L * 1024 * 1024)
                    .withDescription("Payload bytes shared by every reader mailbox on one member.");

    public static final Option<Integer> MAX_COMMAND_PAYLOAD_BYTES =
            Options.key("command.max-payload-bytes")
                    .intType()
                    .defaultValue(512 * 1024)
                    .withDescription("Largest payload one command may carry.");

    public static final Option<Integer> DEDUP_WINDOW =
            Options.key("reader-mailbox.dedup-window")
                    .intType()
                    .defaultValue(4096)
                    .withDescription(
                            "Most recently admitted command ids remembered per mailbox to"
                                    + " answer DUPLICATE; a power of two. The table starts at 64"
                                    + " and doubles as ids collide, up to this. Exact"
                                    + " once-per-attempt apply does not depend on it.");

    public static final Option<Integer> MAILBOX_MAX_SEQUENCE_GAPS =
            Options.key("reader-mailbox.max-sequence-gaps")
                    .intType()
                    .defaultValue(MailboxLimits.DEFAULT_MAX_SEQUENCE_GAPS)
                    .withDescription(
                            "Sequences a reader attempt may have applied above its contiguous"
                                    + " watermark, per coordinator epoch. The runtime's sender"
                                    + " never leaves gaps; more than this fails the attempt"
                                    + " (LEDGER_GAPS_EXCEEDED), a guard against foreign senders.");

    public static final Option<Integer> POLL_MAX_RECORDS =
            Options.key("poll.max-records-per-turn")
                    .intType()
                    .defaultValue(64)
                    .withDescription("Records after which a poll turn yields.");

    public static final Option<Long> POLL_MAX_BYTES =
            Options.key("poll.max-bytes-per-turn")
                    .longType()
                    .defaultValue(4L * 1024 * 1024)
                    .withDescription("Estimated record bytes after which a poll turn yields.");

    public static final Option<Duration> POLL_SOFT_DURATION =
            Options.key("poll.soft-duration")
                    .durationType()
                    .defaultValue(Duration.ofMillis(5))
                    .withDescription(
                            "Time after which a poll turn should yield; an overrun is recorded.");

    public static final Option<Duration> POLL_HARD_DURATION =
            Options.key("poll.hard-duration")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription("Turn duration after which the runtime calls wakeup().");

    public static final Option<Duration> POLL_CANCELLATION_TIMEOUT =
            Options.key("poll.cancellation-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "Turn duration after which the task fails; the lane never changes.");

    public static final Option<Duration> ADMISSION_P99_BUDGET =
            Options.key("admission.p99-budget")
                    .durationType()
                    .defaultValue(Duration.ofMillis(5))
                    .withDescription(
                            "Admission latency budget of the receiving member: a command whose"
                                    + " admission (frame arrival to ack) takes longer counts in"
                                    + " ManagedSourceAdmissionOverBudget; STIP-31 requires that"
                                    + " count to stay under 1 % of the deliveries.");

    public static final Option<Duration> REPORT_BATCH_WINDOW =
            Options.key("transport.report-batch-window")
                    .durationType()
                    .defaultValue(Duration.ofMillis(2))
                    .withDescription(
                            "Longest time a reader's checkpoint report waits on its member for the"
                                    + " reports of the member's other readers of the same source,"
                                    + " so they reach the coordinator in one batch; a batch leaves"
                                    + " earlier once every local reader reported or it reached"
                                    + " transport.report-batch-max-reports. 0 sends each report"
                                    + " at once. Kept small: reports release the coordinator's"
                                    + " tracker entries.");

    public static final Option<Integer> COMMAND_BATCH_MAX_COMMANDS =
            Options.key("transport.command-batch-max-commands")
                    .intType()
                    .defaultValue(64)
                    .withDescription(
                            "Most commands of one stream (one coordinator to one reader, or one"
                                    + " reader to its coordinator) in one operation; the stream"
                                    + " keeps one operation in flight and its order across"
                                    + " retries (counted in ManagedSourceCommandBatchesSent).");

    public static final Option<Integer> REPORT_BATCH_MAX_REPORTS =
            Options.key("transport.report-batch-max-reports")
                    .intType()
                    .defaultValue(64)
                    .withDescription(
                            "Most checkpoint reports in one batch to a coordinator; a full batch"
                                    + " leaves at once (counted in"
                                    + " ManagedSourceReportFlushCountBound).");

    public static final Option<Duration> RETRY_INITIAL_BACKOFF =
            Options.key("retry.initial-backoff")
                    .durationType()
                    .defaultValue(Duration.ofMillis(10))
                    .withDescription(
                            "First backoff before a command is sent again after RETRY_LATER or a"
                                    + " transport failure (coordinator resends and reader sends"
                                    + " alike); a larger retryAfterMillis hint of the receiver"
                                    + " wins.");

    public static final Option<Duration> RETRY_MAX_BACKOFF =
            Options.key("retry.max-backoff")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "Largest backoff between two attempts of one command; the backoff"
                                    + " doubles from retry.initial-backoff up to it.");

    public static final Option<Integer> RETRY_MAX_ATTEMPTS =
            Options.key("retry.max-attempts")
                    .intType()
                    .defaultValue(120)
                    .withDescription(
                            "Attempts (the first included) after which a command is no longer"
                                    + " sent again. A coordinator assignment or control that"
                                    + " reaches it fails the coordinator, so the pipeline restores"
                                    + " from its last checkpoint; a reader's send ends with its"
                                    + " last answer. Counted in ManagedSourceRetriesExhausted and"
                                    + " ManagedSourceCommandRetriesExhausted.");

    public static final Option<Integer> COORDINATOR_ASYNC_MAX_CONCURRENCY =
            Options.key("coordinator.async-max-concurrency")
                    .intType()
                    .defaultValue(4)
                    .withDescription(
                            "Async tasks (callAsync) one coordinator may run at a time on the"
                                    + " member's async workers.");

    public static final Option<Integer> COORDINATOR_ASYNC_QUEUE_CAPACITY =
            Options.key("coordinator.async-queue-capacity")
                    .intType()
                    .defaultValue(16)
                    .withDescription(
                            "Async tasks of one coordinator that may wait for one of its"
                                    + " coordinator.async-max-concurrency slots; a submission"
                                    + " beyond it is rejected: its result handler receives a"
                                    + " RejectedExecutionException, counted in"
                                    + " ManagedSourceCoordinatorAsyncRejected.");

    public static final Option<Integer> ASYNC_DISCOVERY_THREADS =
            Options.key("async-worker.discovery-threads")
                    .intType()
                    .defaultValue(4)
                    .withDescription(
                            "Threads of the member's DISCOVERY async workers (split and partition"
                                    + " discovery, metadata I/O), shared by every coordinator on"
                                    + " the member; never the coordinator loops' threads. Read"
                                    + " when the member starts.");

    public static final Option<Integer> ASYNC_DISCOVERY_QUEUE =
            Options.key("async-worker.discovery-queue-capacity")
                    .intType()
                    .defaultValue(1024)
                    .withDescription(
                            "DISCOVERY tasks that may wait member-wide for a thread; a task"
                                    + " beyond it is rejected like a coordinator's over-limit"
                                    + " submission and counted in ManagedSourceAsyncRejected."
                                    + " Read when the member starts.");

    public static final Option<Integer> ASYNC_COMPUTE_THREADS =
            Options.key("async-worker.compute-threads")
                    .intType()
                    .defaultValue(2)
                    .withDescription(
                            "Threads of the member's COMPUTE async workers (CPU-bound planning),"
                                    + " apart from the DISCOVERY ones so slow I/O cannot hold"
                                    + " them. Read when the member starts.");

    public static final Option<Integer> ASYNC_COMPUTE_QUEUE =
            Options.key("async-worker.compute-queue-capacity")
                    .intType()
                    .defaultValue(1024)
                    .withDescription(
                            "COMPUTE tasks that may wait member-wide for a thread. Read when the"
                                    + " member starts.");

    public static final Option<Integer> TRACKER_MAX_ENTRIES =
            Options.key("assignment-tracker.max-entries")
                    .intType()
                    .defaultValue(100_000)
                    .withDescription(
                            "Assignments in flight: each is the splits of one command (at most"
                                    + " coordinator.max-splits-per-command) to one reader,"
                                    + " tracked from dispatch until a completed checkpoint proves"
                                    + " them (until applied without checkpoints); each reader"
                                    + " gets an even share. At the bound splits wait in the"
                                    + " coordinator (AssignmentBackpressured), never dropped.");

    public static final Option<Long> TRACKER_MAX_BYTES =
            Options.key("assignment-tracker.max-bytes")
                    .longType()
                    .defaultValue(64L * 1024 * 1024)
                    .withDescription(
                            "Estimated heap bytes of the assignments in flight: their splits' ids"
                                    + " and serialized bytes, plus about 24 bytes per split and"
                                    + " 256 per assignment.");

    public static final Option<Integer> TRACKER_MAX_UNASSIGNED_ENTRIES =
            Options.key("assignment-tracker.max-unassigned-entries")
                    .intType()
                    .defaultValue(100_000)
                    .withDescription(
                            "Splits an enumerator handed out that wait in the coordinator for"
                                    + " room in a reader. More at once fails the coordinator"
                                    + " naming this option: an enumerator that implements"
                                    + " SupportSplitDemand is asked only for what readers can"
                                    + " take and never reaches it.");

    public static final Option<Long> TRACKER_MAX_UNASSIGNED_BYTES =
            Options.key("assignment-tracker.max-unassigned-bytes")
                    .longType()
                    .defaultValue(64L * 1024 * 1024)
                    .withDescription("Estimated bytes of the splits waiting in the coordinator.");

    public static final Option<Integer> COORDINATOR_MAX_SPLITS_PER_COMMAND =
            Options.key("coordinator.max-splits-per-command")
                    .intType()
                    .defaultValue(64)
                    .withDescription(
                            "Most splits one assignment command carries (and at most"
                                    + " command.max-payload-bytes): consecutive splits of one"
                                    + " reader leave together, applied in one step.");

    public static final Option<Duration> CUT_HOLD_TIMEOUT =
            Options.key("reader.cut-hold-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(60))
                    .withDescription(
                            "How long a reader holds a command created after coordinator"
                                    + " snapshot N while waiting for its own barrier N; past it the"
                                    + " task fails and restores rather than risk a duplicate.");

    public static final Option<Duration> SCHEMA_CHANGE_TIMEOUT =
            Options.key("reader.schema-change-timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "Longest time a reader's schema change may take from the connector's"
                                    + " mark to the completion of the checkpoint it is bound to;"
                                    + " no poll turn runs meanwhile. Past it the task fails with"
                                    + " SCHEMA_CHANGE_FAILED and the job restores.");

    public static final Option<Duration> IDLE_WAIT =
            Options.key("reader.idle-wait")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "Longest wait of an idle reader host for a command, availability or"
                                    + " barrier signal before it returns an empty poll to the"
                                    + " engine, which then sleeps 100 ms; a longer wait means"
                                    + " fewer of those sleeps delay an idle reader. Also the"
                                    + " longest time a reader that reported NOTHING_AVAILABLE goes"
                                    + " without a poll turn if its availability future never"
                                    + " completes.");

    public static final Option<Duration> POLL_LINGER =
            Options.key("reader.poll-linger")
                    .durationType()
                    .defaultValue(Duration.ZERO)
                    .withDescription(
                            "After a poll turn found nothing available, how long a reader waits"
                                    + " before its next turn even if data arrives sooner; commands"
                                    + " and barriers still run at once, and data that arrives"
                                    + " after a longer quiet is polled at once. 0 polls as soon as"
                                    + " data is there (lowest latency). A few tens of"
                                    + " milliseconds hand the engine fewer, larger batches when"
                                    + " data trickles in, waking the task and sink threads less"
                                    + " often, at up to that much added latency. At most"
                                    + " reader.idle-wait.");

    public static final Option<Integer> WAKE_BUDGET =
            Options.key("reader.wake-budget")
                    .intType()
                    .defaultValue(250)
                    .withDescription(
                            "Wake-ups per second that the Lane A readers of one member whose data"
                                    + " trickles in may cost together. While reader.poll-linger is"
                                    + " 0, a reader whose poll turn emitted rows and then found"
                                    + " nothing more lingers (number of Lane A readers on the"
                                    + " member) / this seconds, at most 100 ms and"
                                    + " reader.idle-wait: with the default, 4 ms for one reader,"
                                    + " 64 ms for 16, 100 ms from 25 readers on."
                                    + " An idle reader whose data comes after a longer quiet, and"
                                    + " one whose data is always there, is not delayed; a reader"
                                    + " whose last linger caught no data does not linger until"
                                    + " its data comes within a linger again, since such a linger"
                                    + " only adds a wake-up. The linger counts from the"
                                    + " reader's last wake-up: one that emitted for longer than"
                                    + " its linger before its data paused (a scan between two"
                                    + " files) does not linger. 0 turns the adaptive linger off.");

    public static final Option<Boolean> OFF_LOOP_CHECK_ENABLED =
            Options.key("reader.off-loop-check.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "A diagnostic for connectors that break Lane A's contract: after a"
                                    + " sampled checkpoint the reader's serialized state is"
                                    + " compared at both ends of the next few windows in which"
                                    + " none of its code runs (from the barrier or the return of a"
                                    + " turn or callback to the next call); a difference means a"
                                    + " thread other than the reader loop moved split positions,"
                                    + " which can lose or repeat records after a restore. Logged"
                                    + " once per reader attempt (WARN) and counted in"
                                    + " ManagedSourceOffLoopStateChanges; the job is never failed"
                                    + " for it. The reader's snapshotState is then also called"
                                    + " between turns, with the next checkpoint's id. Off by"
                                    + " default.");

    public static final Option<ReaderMetricsLevel> READER_METRICS_LEVEL =
            Options.key("reader.metrics-level")
                    .enumType(ReaderMetricsLevel.class)
                    .defaultValue(ReaderMetricsLevel.BASIC)
                    .withDescription(
                            "Which of its own metrics each Lane A reader registers in its engine"
                                    + " task: BASIC the 15 an operator watches (mailbox levels,"
                                    + " poll work, commands applied, checkpoints, output-blocked"
                                    + " time, outstanding requests, availability not signalled);"
                                    + " DETAILED all 47 (adding admissions by status, overruns,"
                                    + " barrier handoffs, schema changes, request outcomes, ...)."
                                    + " Each metric of each reader costs about 1.2 KiB of member"
                                    + " heap while the job runs."
                                    + " ManagedSourceOffLoopStateChecks and"
                                    + " ManagedSourceOffLoopStateChanges are registered at either"
                                    + " level while reader.off-loop-check.enabled is on. The"
                                    + " member's own sums (ManagedSourceMember...) are always"
                                    + " exported.");

    public static final Option<Integer> OFF_LOOP_CHECK_INTERVAL =
            Options.key("reader.off-loop-check.interval")
                    .intType()
                    .defaultValue(10)
                    .withDescription(
                            "With reader.off-loop-check.enabled: each reader attempt samples its"
                                    + " first checkpoint and then one in this many; 1 samples every"
                                    + " checkpoint. A sample watches up to 8 windows and costs up"
                                    + " to 15 more snapshotState calls and 16 serializations of the"
                                    + " reader's split state.");

    public static final Option<Integer> READER_MAX_OUTSTANDING_REQUESTS =
            Options.key("reader.max-outstanding-requests")
                    .intType()
                    .defaultValue(16)
                    .withDescription(
                            "Most requests of one reader to its coordinator (split requests and"
                                    + " source events) sent or waiting to be sent without an"
                                    + " answer yet. At the bound a split request is sent when an"
                                    + " answer frees a slot, and a source event is refused with"
                                    + " RejectedExecutionException.");

    public static final Option<Integer> READER_SPLIT_WINDOW =
            Options.key("reader.split-window")
                    .intType()
                    .defaultValue(1024)
                    .withDescription(
                            "Most splits a Lane A reader holds unread, for connectors whose every"
                                    + " split ends (files, ranges, bounded partitions) and that"
                                    + " count them: the coordinator sends more when the reader"
                                    + " reports room (at half the window, and at zero), and the"
                                    + " rest wait in its tracker (SplitWindowWaits). Keeps a"
                                    + " reader's memory and checkpoint state small however many"
                                    + " splits a job has. Readers of endless splits (a stream's"
                                    + " partitions) are not held to it.");

    public static final Option<Duration> READER_INTERRUPT_CHECK_INTERVAL =
            Options.key("reader.interrupt-check-interval")
                    .durationType()
                    .defaultValue(Duration.ofMillis(10))
                    .withDescription(
                            "How often the member checks whether the engine interrupted a Lane A"
                                    + " task thread (how Zeta cancels a task) during a long poll"
                                    + " turn, then cancels the reader attempt and calls its"
                                    + " wakeup(). The check starts when the member's turn watchdog"
                                    + " finds the turn still running (within 100 ms for a turn that"
                                    + " follows another back to back; for a reader's first turn"
                                    + " after it found nothing, at poll.hard-duration or 1 s,"
                                    + " whichever comes first) and ends with the turn; short turns"
                                    + " and idle readers cause none. A"
                                    + " fallback: the runtime hears of the interrupt the moment it"
                                    + " happens while it drives the reader, unless the connector's"
                                    + " own channel I/O inside the turn displaced that listener and"
                                    + " left the interrupt flag set.");
    public static final Option<Duration> BARRIER_HANDOFF_TIMEOUT =
            Options.key("reader.barrier-handoff-timeout")
                    .durationType()
                    .defaultValue(Duration.ofMillis(100))
                    .withDescription(
                            "Longest wait of a reader's task thread, checkpoint lock released, for"
                                    + " a barrier its coordinator announced (the coordinator"
                                    + " snapshots each checkpoint before the engine sends the"
                                    + " barrier to the readers), so that the barrier takes the"
                                    + " lock at once instead of racing the reader for it; past it"
                                    + " the reader goes on. Only a reader whose last turn left work"
                                    + " for the next waits: one that last waited for data runs its"
                                    + " one turn, which the barrier may wait for. The same bound,"
                                    + " counted from the same start, ends the wait that follows"
                                    + " the reader's own barrier, for the other readers of the"
                                    + " source on the member to take theirs. 0 turns the handoff"
                                    + " off.");

    public static final Option<Duration> OUTPUT_IN_FLIGHT_TARGET =
            Options.key("reader.output-in-flight-target")
                    .durationType()
                    .defaultValue(Duration.ofMillis(50))
                    .withDescription(
                            "Rows a reader keeps queued to the next task of its task group: as"
                                    + " many as that task drains in this time at its measured"
                                    + " rate (at least 32, at most the engine's queue less 256),"
                                    + " so a barrier waits behind at most about this much data."
                                    + " Poll turns end when that much is queued instead of"
                                    + " blocking in the engine's collector with the checkpoint"
                                    + " lock held. 0 keeps the bound at its maximum.");

    public static final Option<Duration> COORDINATOR_CLOSE_TIMEOUT =
            Options.key("coordinator.close-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "Longest wait for a coordinator's close (the connector enumerator's"
                                    + " close()) when the engine closes the enumerator or the"
                                    + " member shuts down; past it the close is abandoned and"
                                    + " logged.");

    public static final Option<Duration> COORDINATOR_SNAPSHOT_TIMEOUT =
            Options.key("coordinator.snapshot-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "Longest wait of the engine's enumerator snapshot (made while the"
                                    + " engine holds its enumerator lock) for the coordinator loop;"
                                    + " past it the snapshot fails, the engine fails that checkpoint"
                                    + " and the timeout is counted and logged.");

    public static final Option<Duration> COORDINATOR_SNAPSHOT_SLOW_THRESHOLD =
            Options.key("coordinator.snapshot-slow-threshold")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "An enumerator snapshot that waits longer than this for the"
                                    + " coordinator loop is counted (CoordinatorSnapshotSlowWaits)"
                                    + " and logged at WARN, at most once a minute per coordinator.");

    private ManagedSourceOptions() {}

    /** Every option, for documentation, unknown-key detection and validation. */
    public static List<Option<?>> all() {
        return Arrays.<Option<?>>asList(
                ENABLED,
                ALLOWED_JOBS,
                ALLOWED_CONNECTORS,
                INELIGIBLE_FALLBACK,
                MAILBOX_MAX_COMMANDS,
                MAILBOX_MAX_BYTES,
                MAILBOX_RESERVED_COMMANDS,
                MAILBOX_RESERVED_BYTES,
                WORKER_MAILBOX_MAX_BYTES,
                MAX_COMMAND_PAYLOAD_BYTES,
                DEDUP_WINDOW,
                MAILBOX_MAX_SEQUENCE_GAPS,
                POLL_MAX_RECORDS,
                POLL_MAX_BYTES,
                POLL_SOFT_DURATION,
                POLL_HARD_DURATION,
                POLL_CANCELLATION_TIMEOUT,
                ADMISSION_P99_BUDGET,
                REPORT_BATCH_WINDOW,
                REPORT_BATCH_MAX_REPORTS,
                COMMAND_BATCH_MAX_COMMANDS,
                RETRY_INITIAL_BACKOFF,
                RETRY_MAX_BACKOFF,
                RETRY_MAX_ATTEMPTS,
                COORDINATOR_ASYNC_MAX_CONCURRENCY,
                COORDINATOR_ASYNC_QUEUE_CAPACITY,
                ASYNC_DISCOVERY_THREADS,
                ASYNC_DISCOVERY_QUEUE,
                ASYNC_COMPUTE_THREADS,
                ASYNC_COMPUTE_QUEUE,
                TRACKER_MAX_ENTRIES,
                TRACKER_MAX_BYTES,
                TRACKER_MAX_UNASSIGNED_ENTRIES,
                TRACKER_MAX_UNASSIGNED_BYTES,
                COORDINATOR_MAX_SPLITS_PER_COMMAND,
                CUT_HOLD_TIMEOUT,
                SCHEMA_CHANGE_TIMEOUT,
                IDLE_WAIT,
                POLL_LINGER,
                WAKE_BUDGET,
                OFF_LOOP_CHECK_ENABLED,
                OFF_LOOP_CHECK_INTERVAL,
                READER_METRICS_LEVEL,
                READER_MAX_OUTSTANDING_REQUESTS,
                READER_SPLIT_WINDOW,
                READER_INTERRUPT_CHECK_INTERVAL,
                BARRIER_HANDOFF_TIMEOUT,
                OUTPUT_IN_FLIGHT_TARGET,
                COORDINATOR_CLOSE_TIMEOUT,
                COORDINATOR_SNAPSHOT_TIMEOUT,
                COORDINATOR_SNAPSHOT_SLOW_THRESHOLD);
    }
}
