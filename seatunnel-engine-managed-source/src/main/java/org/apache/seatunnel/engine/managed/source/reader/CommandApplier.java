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

package org.apache.seatunnel.engine.managed.source.reader;

import java.util.List;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.managed.source.protocol.LongPayload;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.MailboxEntry.CheckpointNotice;
import org.apache.seatunnel.engine.managed.source.reader.MailboxEntry.RemoteCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the ordered commands of one reader attempt to its connector: coordinator commands (split
 * assignments, no-more-splits, source events) at most once per attempt through the {@link
 * AppliedCommandLedger} (invariant 6), and the signals of the reader's own member ({@link
 * #applySignal}: checkpoint completed or aborted, graceful close). It owns the ledger and what the
 * attempt's checkpoint cut records of it ({@link #cut}). Every applied command releases its mailbox
 * capacity, earns an idle reader a poll and, for a sequenced coordinator command, is acknowledged
 * to the host after its slot is free.
 *
 * <p>Threading: the loop's driving thread only (whichever thread drives the loop, one at a time),
 * like the loop it belongs to.
 */
final class CommandApplier<SplitT extends SourceSplit> implements CheckpointCutGate.Applier {
    private static final Logger LOG = LoggerFactory.getLogger(CommandApplier.class);

    private final ReaderEventLoop<?, SplitT> loop;
    private final ReaderMailbox mailbox;
    private final ManagedSourceReader<?, SplitT> reader;
    private final ReaderLoopHost<SplitT> host;
    private final NanoClock clock;
    private final ReaderLoopMetrics metrics;
    private final PollScheduler polls;
    private final OffLoopWindow<SplitT> offLoop;
    private final CheckpointCutGate cutGate;
    private final SchemaChangeSteps schema;
    private final AppliedCommandLedger ledger;

    private long lastCompleteNotified;
    private long noMoreSplitsGeneration;
    private boolean noMoreSplitsApplied;

    CommandApplier(
            ReaderEventLoop<?, SplitT> loop,
            ManagedSourceReader<?, SplitT> reader,
            ReaderLoopHost<SplitT> host,
            ReaderLoopMetrics metrics,
            PollScheduler polls,
            OffLoopWindow<SplitT> offLoop,
            CheckpointCutGate cutGate,
            SchemaChangeSteps schema) {
        this.loop = loop;
        this.mailbox = loop.mailbox();
        this.reader = reader;
        this.host = host;
        this.clock = mailbox.clock();
        this.metrics = metrics;
        this.polls = polls;
        this.offLoop = offLoop;
        this.cutGate = cutGate;
        this.schema = schema;
        this.ledger = new AppliedCommandLedger(mailbox.limits().maxSequenceGaps());
    }

    /** The attempt restores from {@code checkpointId}: its completion was heard already. */
    void start(long restoredCheckpointId) {
        lastCompleteNotified = restoredCheckpointId;
    }

    /** See {@link ReaderEventLoop#appliedWatermark}. */
    long appliedWatermark(long epoch) {
        return ledger.watermark(epoch);
    }

    /** What checkpoint {@code checkpointId} records of the applied commands. */
    ReaderCheckpointCut cut(long checkpointId) {
        return new ReaderCheckpointCut(
                checkpointId,
                mailbox.attemptId(),
                ledger.watermarks(),
                ledger.appliedAboveWatermark(),
                noMoreSplitsGeneration);
    }

    @Override
    public void apply(RemoteCommand command) {
        SourceCommandEnvelope env = command.envelope();
        boolean acknowledge = false;
        try {
            boolean ledgered = env.commandId() > 0 && env.senderSequence() > 0;
            if (ledgered && !firstApplication(env)) {
                return;
            }
            switch (env.commandKind()) {
                case SPLIT_ASSIGNMENT:
                case NO_MORE_SPLITS:
                case SOURCE_EVENT:
                    polls.dataCommandApplied();
                    boolean watching = offLoop.beforeCall();
                    callCoordinatorCommand(env);
                    if (watching) {
                        offLoop.afterCall();
                    }
                    break;
                case CHECKPOINT_ABORTED:
                    // The coordinator's word that a checkpoint will never reach this reader.
                    checkpointAborted(LongPayload.decodeOr(env, -1L));
                    break;
                default:
                    LOG.warn(
                            "Reader attempt {} ignored a {} command it does not handle",
                            mailbox.attemptId(),
                            env.commandKind());
            }
            if (ledgered) {
                acknowledge = recordApplied(env);
            }
            applied(command);
        } catch (Throwable e) {
            ConnectorFailures.failConnector(mailbox, e);
        } finally {
            mailbox.complete(command);
        }
        if (acknowledge) {
            // After its slot is free: the coordinator sends the next command on this answer.
            host.onApplied(env);
        }
    }

    /**
     * Applies a signal of the reader's own member other than a barrier (which the loop takes):
     * checkpoint completed or aborted, graceful close. Local signals are never redelivered, so no
     * ledger and no acknowledgement.
     */
    void applySignal(MailboxEntry signal) {
        try {
            switch (signal.kind()) {
                case CHECKPOINT_COMPLETE:
                    checkpointComplete(((CheckpointNotice) signal).checkpointId());
                    break;
                case CHECKPOINT_ABORTED:
                    checkpointAborted(((CheckpointNotice) signal).checkpointId());
                    break;
                case GRACEFUL_CLOSE:
                    loop.closeGracefully();
                    break;
                default:
                    throw new IllegalArgumentException(signal + " is not applied as a signal");
            }
            applied(signal);
        } catch (Throwable e) {
            ConnectorFailures.failConnector(mailbox, e);
        } finally {
            mailbox.complete(signal);
        }
    }

    private void applied(MailboxEntry entry) {
        // Every applied command earns an idle reader a poll: a reader that never completes
        // its availability future still makes progress at the pace of its commands.
        polls.want();
        metrics.commandsApplied.incrementAndGet();
        metrics.queueWaitNanos.addAndGet(clock.nanoTime() - entry.admittedNanos());
    }

    /** The latest checkpoint whose completion this attempt has applied (or restored from). */
    long lastCompleteNotified() {
        return lastCompleteNotified;
    }

    private void checkpointComplete(long done) throws Exception {
        // Repeats after restore are normal in Zeta 2.3.8: one effect per id.
        if (done > lastCompleteNotified) {
            lastCompleteNotified = done;
            boolean watching = offLoop.beforeCall();
            reader.notifyCheckpointComplete(done);
            if (watching) {
                offLoop.afterCall();
            }
        }
        schema.checkpointCompleted(done);
    }

    private void checkpointAborted(long aborted) throws Exception {
        if (cutGate.aborted(aborted)) {
            cutGate.release(cutGate.releasedCut(), this, mailbox);
        }
        boolean watching = offLoop.beforeCall();
        reader.notifyCheckpointAborted(aborted);
        if (watching) {
            offLoop.afterCall();
        }
        schema.checkpointAborted(aborted);
    }

    /**
     * Exactly-once apply per attempt for sequenced coordinator commands (positive ids and
     * sequences). Source events carry sequence 0 because they are ephemeral and not part of the
     * checkpointed watermark.
     */
    private boolean firstApplication(SourceCommandEnvelope env) {
        if (ledger.isApplied(env.coordinatorEpoch(), env.senderSequence())) {
            metrics.duplicatesSkipped.incrementAndGet();
            return false;
        }
        return true;
    }

    /** Records the application in the ledger; false (and the attempt failed) past its bound. */
    private boolean recordApplied(SourceCommandEnvelope env) {
        if (!ledger.markApplied(env.coordinatorEpoch(), env.senderSequence())) {
            ConnectorFailures.fail(
                    mailbox,
                    ReasonCode.LEDGER_GAPS_EXCEEDED,
                    new IllegalStateException(
                            "coordinator epoch "
                                    + env.coordinatorEpoch()
                                    + " left more out-of-order sequences than the ledger bound"));
            return false;
        }
        return true;
    }

    /** Fault points 5 and 6, tests only: the attempt fails as a connector failure would. */
    private static void crashIfInjected(FaultSite site, SourceCommandEnvelope env) {
        if (FaultSeam.at(site, env.jobId(), env.targetSubtask(), env.commandKind().name())
                == FaultAction.CRASH) {
            throw new InjectedFaultException(site, FaultAction.CRASH);
        }
    }

    private void callCoordinatorCommand(SourceCommandEnvelope env) throws Exception {
        switch (env.commandKind()) {
            case SPLIT_ASSIGNMENT:
                List<SplitT> splits = host.decodeSplits(env);
                if (FaultSeam.INSTALLED != null) {
                    crashIfInjected(FaultSite.CONNECTOR_APPLY_BEFORE_RETURN, env);
                }
                reader.addSplits(splits);
                if (FaultSeam.INSTALLED != null) {
                    crashIfInjected(FaultSite.APPLY_COMPLETION, env);
                }
                polls.want();
                break;
            case NO_MORE_SPLITS:
                noMoreSplitsGeneration = Math.max(noMoreSplitsGeneration, env.coordinatorEpoch());
                if (!noMoreSplitsApplied) {
                    noMoreSplitsApplied = true;
                    reader.handleNoMoreSplits();
                }
                polls.want();
                break;
            default:
                reader.handleSourceEvent(host.decodeSourceEvent(env));
                polls.want();
        }
    }
}
