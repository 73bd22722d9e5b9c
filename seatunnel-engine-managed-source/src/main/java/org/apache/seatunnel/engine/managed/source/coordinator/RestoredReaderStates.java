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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a coordinator does with the reader states the engine hands back after a restore: each old
 * owner's metadata (a RESTORED report) reconciles that owner's restored in-flight assignments, the
 * state's connector splits go back to the enumerator, and a state delivered a second time in the
 * epoch is dropped whole.
 *
 * <p>The engine may deliver one state twice: its restore operation retries until it finds the
 * enumerator task, so one sent by the previous restore attempt's reader can land on this attempt's
 * task, which gets its own readers' (identical) states too. Passing both on would give the
 * enumerator two copies of each split. A delivery that repeats only some of its owners is refused:
 * no restore produces it.
 *
 * <p>Threading: loop-owned, like the {@link CoordinatorCore} that calls it.
 */
final class RestoredReaderStates<SplitT extends SourceSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(RestoredReaderStates.class);

    private final long epoch;
    private final SourceAssignmentTracker tracker;
    private final ReaderRegistry readers;
    private final CoordinatorMetrics metrics;
    // Where splits go back to the enumerator (the core's handlers): entries the restored metadata
    // does not prove, and a restored state's connector splits as the receiving subtask's.
    private final Consumer<List<AssignmentEntry>> returnEntries;
    private final BiConsumer<Integer, List<SplitT>> returnSplits;

    RestoredReaderStates(
            long epoch,
            SourceAssignmentTracker tracker,
            ReaderRegistry readers,
            CoordinatorMetrics metrics,
            Consumer<List<AssignmentEntry>> returnEntries,
            BiConsumer<Integer, List<SplitT>> returnSplits) {
        this.epoch = epoch;
        this.tracker = tracker;
        this.readers = readers;
        this.metrics = metrics;
        this.returnEntries = returnEntries;
        this.returnSplits = returnSplits;
    }

    /**
     * A restored reader state handed back as {@code subtask}'s: the RESTORED metadata of each old
     * owner it holds and its connector splits.
     */
    void deliver(int subtask, List<ReaderInclusionReport> owners, List<SplitT> splits) {
        int repeated = 0;
        for (ReaderInclusionReport r : owners) {
            if (r.kind() != ReaderInclusionReport.Kind.RESTORED) {
                throw new IllegalArgumentException("a restored reader state carries a " + r.kind());
            }
            if (!readers.firstRestoredState(r.subtask())) {
                repeated++;
            }
        }
        if (repeated > 0) {
            if (repeated < owners.size()) {
                throw new IllegalStateException(
                        "the engine handed back reader states of subtask "
                                + subtask
                                + " that repeat "
                                + repeated
                                + " of their "
                                + owners.size()
                                + " restored owners: no restore produces that");
            }
            metrics.increment(Counter.RESTORED_STATES_DUPLICATED);
            LOG.warn(
                    "Coordinator epoch {}: the engine handed back the restored state of reader"
                            + " subtask {} again ({} splits); dropped, the first delivery stands",
                    epoch,
                    subtask,
                    splits.size());
            return;
        }
        for (ReaderInclusionReport r : owners) {
            reconcile(r);
        }
        if (!splits.isEmpty()) {
            returnSplits.accept(subtask, splits);
        }
    }

    /**
     * A restored owner's metadata: its restored in-flight assignments it proves stay (the reader
     * keeps or finished them), the rest go back to the enumerator; once every restored owner was
     * reported, assignment is no longer held. A report for an owner not awaited is fenced.
     */
    void reconcile(ReaderInclusionReport r) {
        if (!readers.isAwaiting(r.subtask())) {
            metrics.increment(Counter.INCLUSION_REPORTS_FENCED);
            return;
        }
        List<AssignmentEntry> back = tracker.reconcileRestoredOwner(r.subtask(), epoch, r);
        metrics.increment(Counter.RECONCILIATIONS);
        returnEntries.accept(back);
        LOG.info(
                "Coordinator epoch {}: restored owner {} reconciled, {} assignments returned",
                epoch,
                r.subtask(),
                back.size());
        if (readers.ownerReconciled(r.subtask())) {
            LOG.info("Coordinator epoch {}: every restored owner reconciled", epoch);
        }
    }
}
