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

package org.apache.seatunnel.engine.managed.faults.world;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.engine.managed.faults.FaultInjectingDispatcher;
import org.apache.seatunnel.engine.managed.faults.FaultInjector;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorConfig;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEpochs;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEventLoop;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorInbox;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorSnapshotCodec;
import org.apache.seatunnel.engine.managed.source.coordinator.EnumeratorFactory;
import org.apache.seatunnel.engine.managed.source.coordinator.OfferResult;
import org.apache.seatunnel.engine.managed.source.coordinator.ReaderInclusionReport;
import org.apache.seatunnel.engine.managed.source.coordinator.SenderDispatcher;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAsyncWorkerPool;
import org.apache.seatunnel.engine.managed.source.coordinator.StateFormatException;
import org.apache.seatunnel.engine.managed.source.reader.ReaderSnapshot;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;

/**
 * Starts a {@link MiniEngine}'s pipeline the way Zeta 2.3.8 starts and restores a Lane A source: it
 * chooses the epoch (the source's high-water mark, or constant 1 for the regression tests), applies
 * a pending rescale, builds the coordinator (restoring its checkpoint blob), hands the reader
 * states back as Zeta's checkpoint coordinator distributes them and opens new reader attempts.
 *
 * <p>Threading: confined to the run's thread, like the engine it starts; it draws from the engine's
 * random stream in a fixed order, so a seed replays the same starts.
 */
final class PipelineStarter {
    /** How long a command may take from its send to its final answer, as on the engine. */
    private static final long SEND_DEADLINE_MILLIS = 60_000;

    /** One started epoch: its coordinator, the executor its loop runs on and its readers. */
    static final class Started {
        final long epoch;
        final ManualExecutor executor;
        final CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator;
        final ReaderTask[] readers;

        Started(
                long epoch,
                ManualExecutor executor,
                CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator,
                ReaderTask[] readers) {
            this.epoch = epoch;
            this.executor = executor;
            this.coordinator = coordinator;
            this.readers = readers;
        }
    }

    private final MiniEngine engine;
    private final WorldConfig config;
    private final FaultInjector faults;
    private final ManualTime time;
    private final ModelMember[] members;
    private final Random rnd;
    private final Random duplicateDeliveries;
    private final CoordinatorEpochs.Store epochs = CoordinatorEpochs.inMemory();
    private final WorkerMailboxBudget workerBudget = new WorkerMailboxBudget(256L << 20);
    private final SourceAsyncWorkerPool workerPool =
            new SourceAsyncWorkerPool(new ManualExecutor());

    private int pendingParallelism;
    private int rescalesUp;
    private int rescalesDown;
    private int restoredStatesDeliveredTwice;
    private int splitsFromRemovedSubtasks;
    private int statesFromRemovedSubtasks;
    private long nextAttempt = 1;

    PipelineStarter(
            MiniEngine engine,
            FaultInjector faults,
            ManualTime time,
            ModelMember[] members,
            Random rnd) {
        this.engine = engine;
        this.config = engine.config;
        this.faults = faults;
        this.time = time;
        this.members = members;
        this.rnd = rnd;
        // Its own stream, so adding this event left every other draw of a seed as it was.
        this.duplicateDeliveries = new Random(config.seed() ^ 0x5DEECE66DL);
    }

    /** The epoch of a start from {@code from} (null: from scratch). */
    long nextEpoch(CheckpointDriver.Completed from) {
        if (config.epochPolicy() != WorldConfig.EpochPolicy.HIGH_WATER) {
            return 1;
        }
        return CoordinatorEpochs.next(
                epochs,
                ReaderTask.JOB_ID,
                ReaderTask.SOURCE_ID,
                from == null ? 0 : checkpointedEpoch(from.blob()));
    }

    /** The next restore runs with {@code parallelism} readers. */
    void rescaleTo(int parallelism) {
        pendingParallelism = parallelism;
    }

    /** The parallelism of the next start: a pending rescale's, or {@code current}. */
    int nextParallelism(int current) {
        if (pendingParallelism == 0) {
            return current;
        }
        int next = pendingParallelism;
        pendingParallelism = 0;
        if (next > current) {
            rescalesUp++;
        } else if (next < current) {
            rescalesDown++;
        }
        return next;
    }

    /**
     * A new coordinator epoch and new reader attempts, in Zeta's order: the enumerator host is
     * built (restoring the coordinator blob), reader states come back through {@code addSplitsBack}
     * before readers register, and open runs before or after them.
     */
    Started start(long e, int parallelism, CheckpointDriver.Completed from) {
        ManualExecutor executor = new ManualExecutor();
        // This epoch's dispatcher finds readers through this epoch's inbox, set just below.
        @SuppressWarnings("unchecked")
        CoordinatorInbox<Integer>[] inboxOfEpoch = new CoordinatorInbox[1];
        FaultInjectingDispatcher dispatcher =
                new FaultInjectingDispatcher(
                        new SenderDispatcher<>(
                                members[MiniEngine.COORDINATOR_MEMBER].sender,
                                s -> inboxOfEpoch[0].fence().member(s),
                                time::nowMillis,
                                SEND_DEADLINE_MILLIS),
                        faults,
                        () ->
                                engine.requestFailure(
                                        "coordinator epoch " + e + " crashed (point 1)"));
        CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator =
                buildCoordinator(
                        e, parallelism, from == null ? null : from.blob(), dispatcher, executor);
        CoordinatorInbox<Integer> inbox =
                new CoordinatorInbox<>(
                        coordinator,
                        ReaderTask.JOB_ID,
                        parallelism,
                        MiniEngine::readerMember,
                        ModelMember.NO_TARGET_RETRY_MILLIS);
        inboxOfEpoch[0] = inbox;
        members[MiniEngine.COORDINATOR_MEMBER].targets.registerCoordinator(
                ReaderTask.SOURCE_ID, inbox::onReaderCommand);
        boolean openFirst = rnd.nextBoolean();
        if (openFirst) {
            expect(coordinator.open(), "open");
        }
        if (from != null) {
            handBackReaderStates(coordinator, parallelism, from);
        }
        if (!openFirst) {
            expect(coordinator.open(), "open");
        }
        if (from != null && rnd.nextBoolean()) {
            // Zeta repeats the restored checkpoint's completion after a restore.
            coordinator.notifyCheckpointComplete(from.id());
        }
        ReaderTask[] readers = new ReaderTask[parallelism];
        for (int s = 0; s < readers.length; s++) {
            readers[s] =
                    new ReaderTask(
                            engine,
                            s,
                            nextAttempt++,
                            members[MiniEngine.readerMember(s)],
                            MiniEngine.COORDINATOR_MEMBER,
                            config.mailboxLimits(),
                            workerBudget,
                            config.pollBudget(),
                            config.splitWindow(),
                            config.rowsPerTurn(),
                            faults,
                            engine.network());
        }
        return new Started(e, executor, coordinator, readers);
    }

    /**
     * As Zeta's CheckpointCoordinator#restoreTaskState: new subtask k restores the states of old
     * subtasks k, k + p, k + 2p, ... and hands them back as one list.
     */
    private void handBackReaderStates(
            CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator,
            int parallelism,
            CheckpointDriver.Completed from) {
        for (int k = 0; k < parallelism; k++) {
            List<ReaderSnapshot> states = new ArrayList<>();
            for (int old = k; old < from.parallelism(); old += parallelism) {
                ReaderSnapshot st = from.states().get(old);
                if (st != null) {
                    states.add(st);
                }
            }
            if (!states.isEmpty()) {
                restoreReaderStates(coordinator, parallelism, k, states, false);
                if (duplicateDeliveries.nextInt(4) == 0) {
                    // Zeta's restore operation retries until it finds the enumerator task, so one
                    // started by the previous attempt's reader can land on this epoch's task too:
                    // the same state, delivered twice.
                    restoredStatesDeliveredTwice++;
                    restoreReaderStates(coordinator, parallelism, k, states, true);
                }
            }
        }
    }

    /**
     * As {@code ManagedEnumeratorHost#addSplitsBack} with the list Zeta hands new subtask {@code
     * subtask}: one RESTORED report per old owner, under its own old index, then every split.
     */
    private void restoreReaderStates(
            CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator,
            int parallelism,
            int subtask,
            List<ReaderSnapshot> states,
            boolean again) {
        List<RowSplit> splits = new ArrayList<>();
        Map<Integer, SourceRuntimeCheckpointMetadata> metas = new TreeMap<>();
        RowSplit.Ser ser = new RowSplit.Ser();
        for (ReaderSnapshot st : states) {
            try {
                for (int i = 0; i < st.splitCount(); i++) {
                    splits.add(ser.deserialize(st.split(i)));
                }
                metas.put(
                        st.subtask(),
                        new SourceRuntimeCheckpointMetadataSerializer().deserialize(st.metadata()));
            } catch (IOException ex) {
                throw new IllegalStateException("cannot read reader state " + st.subtask(), ex);
            }
            if (st.subtask() >= parallelism && !again) {
                statesFromRemovedSubtasks++;
                splitsFromRemovedSubtasks += st.splitCount();
            }
        }
        List<ReaderInclusionReport> owners = new ArrayList<>();
        for (Map.Entry<Integer, SourceRuntimeCheckpointMetadata> m : metas.entrySet()) {
            owners.add(
                    ReaderInclusionReport.fromMetadata(
                            ReaderInclusionReport.Kind.RESTORED,
                            m.getKey(),
                            ReaderInclusionReport.NO_ATTEMPT,
                            m.getValue()));
        }
        expect(coordinator.restoreReaderState(subtask, owners, splits), "restore reader state");
    }

    private CoordinatorEventLoop<RowSplit, List<RowSplit>> buildCoordinator(
            long e,
            int parallelism,
            byte[] blob,
            FaultInjectingDispatcher dispatcher,
            ManualExecutor executor) {
        return CoordinatorEventLoop.<RowSplit, List<RowSplit>>builder()
                .config(
                        CoordinatorConfig.builder()
                                .jobId(ReaderTask.JOB_ID)
                                .sourceRuntimeId(ReaderTask.SOURCE_ID)
                                .epoch(e)
                                .parallelism(parallelism)
                                .maxTrackerEntries(config.maxTrackerEntries())
                                .checkpointsEnabled(config.checkpointsEnabled())
                                .commandQueueCapacity(1024)
                                .completionQueueCapacity(1024)
                                .drainBatch(config.drainBatch())
                                .build())
                .enumeratorFactory(
                        new EnumeratorFactory<RowSplit, List<RowSplit>>() {
                            @Override
                            public SourceSplitEnumerator<RowSplit, List<RowSplit>> create(
                                    SourceSplitEnumerator.Context<RowSplit> ctx) {
                                return engine.enumeratorStarted(
                                        RowEnumerator.create(
                                                ctx, engine.allSplits, config.enumeratorMode()));
                            }

                            @Override
                            public SourceSplitEnumerator<RowSplit, List<RowSplit>> restore(
                                    SourceSplitEnumerator.Context<RowSplit> ctx,
                                    List<RowSplit> state) {
                                return engine.enumeratorStarted(
                                        RowEnumerator.create(ctx, state, config.enumeratorMode()));
                            }
                        })
                .splitSerializer(new RowSplit.Ser())
                .stateSerializer(new RowEnumerator.StateSer())
                .dispatcher(dispatcher)
                .executor(executor)
                .timer(time)
                .clock(time.clock())
                .workerPool(workerPool)
                .failureHandler((where, cause) -> engine.coordinatorFailed(e, where, cause))
                .restoreFrom(blob)
                .build();
    }

    private void expect(OfferResult r, String what) {
        if (r != OfferResult.ENQUEUED) {
            throw engine.fail("coordinator did not accept " + what + ": " + r);
        }
    }

    private static long checkpointedEpoch(byte[] blob) {
        try {
            return CoordinatorSnapshotCodec.decode(blob).epoch();
        } catch (StateFormatException e) {
            throw new IllegalStateException("unreadable coordinator checkpoint", e);
        }
    }

    /** Restores that raised the parallelism. */
    int rescalesUp() {
        return rescalesUp;
    }

    /** Restores that lowered the parallelism. */
    int rescalesDown() {
        return rescalesDown;
    }

    /** Restored reader states handed to a coordinator twice, as Zeta may. */
    int restoredStatesDeliveredTwice() {
        return restoredStatesDeliveredTwice;
    }

    /** Reader states of subtasks a rescale down removed, handed back through a survivor. */
    int statesFromRemovedSubtasks() {
        return statesFromRemovedSubtasks;
    }

    /** Splits restored from the state of subtasks a rescale down removed. */
    int splitsFromRemovedSubtasks() {
        return splitsFromRemovedSubtasks;
    }
}
