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

package org.apache.seatunnel.managed.testkit.conformance;

import java.util.List;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * The rules of the Lane A reader contract, each a method that throws a {@link ConformanceViolation}
 * naming its rule when the target breaks it. {@link ManagedReaderConformanceSuite} runs them as
 * JUnit tests; the kit's own tests run them on deliberately broken readers.
 *
 * <p>Randomized rules draw from the target's seed; every violation message ends with it, and {@code
 * -Dconformance.seed=S} replays.
 *
 * <p>Threading: one test thread per instance; the expected records are computed once, lazily.
 */
public final class ConformanceRules<T, SplitT extends SourceSplit> {
    private final ReaderRuleSupport.ExpectedRecords expected =
            new ReaderRuleSupport.ExpectedRecords();
    private final TimingRules<T, SplitT> timing;
    private final SnapshotRules<T, SplitT> snapshots;
    private final StateRules<T, SplitT> state;
    private final IsolationRules<T, SplitT> isolation;

    public ConformanceRules(ConformanceTarget<T, SplitT> target) {
        this.timing = new TimingRules<>(target, expected);
        this.snapshots = new SnapshotRules<>(target, expected);
        this.state = new StateRules<>(target, expected);
        this.isolation = new IsolationRules<>(target, expected);
    }

    /**
     * Every record of the fixture data, as read by one reader with every split assigned up front
     * and no interference: the reference the other rules compare against.
     */
    public List<String> expectedRecords() throws Exception {
        return timing.expectedRecords();
    }

    /**
     * Turns with random record limits and yield points: each turn emits at most its record limit,
     * at most {@code recordsPerShouldYield} records after {@code shouldYield()} turned true, and
     * returns within its deadline plus the grace.
     */
    public void pollReturnsWithinBudgetAndHonoursShouldYield() throws Exception {
        timing.pollReturnsWithinBudgetAndHonoursShouldYield();
    }

    /**
     * Splits arrive one by one at random points, with random pauses between NOTHING_AVAILABLE and
     * {@code isAvailable()} so the reader's own threads race the call: every future that should
     * complete does, within the availability bound, and every record arrives once.
     */
    public void noLostWakeupUnderAdversarialTiming() throws Exception {
        timing.noLostWakeupUnderAdversarialTiming();
    }

    /**
     * Four threads call {@code wakeup()} 2,000 times each while the reader is read to its end: no
     * call throws or blocks past a second, the threads finish, and every record arrives once.
     */
    public void wakeupIsIdempotentAndThreadSafe() throws Exception {
        timing.wakeupIsIdempotentAndThreadSafe();
    }

    /**
     * On a thread of its own, as the runtime's loop: a reader gets every fixture split (but no
     * no-more-splits) and is read until it drained them, then polled with a long deadline ({@code
     * blockedTurn}), when nothing can come. A reader that waits inside that turn (its thread
     * waiting or blocked, or still inside it after the availability bound) is woken with {@code
     * wakeup()} from the test thread, and the turn must return within {@code wakeupBound}.
     *
     * @return true if the reader waited and was woken; false if the turn returned at once (a reader
     *     that never waits in a turn has nothing to wake)
     */
    public boolean wakeupEndsABlockedPoll() throws Exception {
        return timing.wakeupEndsABlockedPoll();
    }

    /**
     * Reads in turns of random size and snapshots between some of them, always including the first
     * turn that ended with more records available (records fetched but not emitted: where a
     * position moved by the fetch side shows); each snapshot restored into a fresh reader yields
     * exactly the records not yet emitted when it was taken.
     */
    public void snapshotAndEmitAreAtomic() throws Exception {
        snapshots.snapshotAndEmitAreAtomic();
    }

    /**
     * Adds half the splits, runs a turn, adds the rest and snapshots at once: the snapshot holds
     * every split just added, and restoring it yields exactly the records not yet emitted.
     */
    public void snapshotIncludesSplitsAddedInTheSameTurn() throws Exception {
        snapshots.snapshotIncludesSplitsAddedInTheSameTurn();
    }

    /**
     * Adds every split twice, reads part of the data, adds the splits (as first assigned) a third
     * time, reads to the end: every record arrives exactly once.
     */
    public void duplicateAddSplitsIsIdempotent() throws Exception {
        snapshots.duplicateAddSplitsIsIdempotent();
    }

    /**
     * Reads the fixture in turns of random size; between turns, at random, a checkpoint completes
     * twice, a checkpoint is aborted twice, no-more-splits arrives again, or the splits the reader
     * holds (as its snapshot has them) are assigned again, as a re-delivered command would be. The
     * snapshot right after each repeated call equals the one right before it, and every record
     * arrives exactly once.
     */
    public void callbacksAreIdempotent() throws Exception {
        snapshots.callbacksAreIdempotent();
    }

    /**
     * Split serializer (fixture splits and a mid-way snapshot), enumerator state serializer (a
     * fresh enumerator's state) and event serializer (the target's events): serialize, deserialize
     * and serialize again gives the same bytes; every truncation is refused with an IOException;
     * seeded bit flips never escape as anything but an IOException.
     */
    public void serializersRoundTripAndRefuseMalformedInput() throws Exception {
        state.serializersRoundTripAndRefuseMalformedInput();
    }

    /**
     * Source events reach a Lane A reader only in the bytes of the source's {@code
     * managedSourceEventSerializer()}, and are never checkpointed. Without a serializer, the
     * target's events and a probe event of the kit's own delivered part-way must change neither the
     * snapshot nor the records (the reader would depend on events Lane A never delivers). With one,
     * the target's events are delivered part-way, a snapshot is taken a few turns later and
     * restored into a fresh reader, without the events unless the target declares that its
     * enumerator sends them again: the restored reader yields exactly the records the first one
     * went on to emit. Skipped (returns false) without a source.
     */
    public boolean sourceEventsAreDeclaredAndSurviveRestore() throws Exception {
        return state.sourceEventsAreDeclaredAndSurviveRestore();
    }

    /**
     * Snapshots part-way, then restores the snapshot's bytes in a reader of the source deserialized
     * into a fresh class loader (the connector's own classes loaded anew): it yields exactly the
     * records not yet emitted. Skipped (returns false) for targets without a source.
     */
    public boolean restoreInFreshClassLoader() throws Exception {
        return isolation.restoreInFreshClassLoader();
    }

    /**
     * Every reader call, from making the reader to close (open, addSplits, poll turns, isAvailable,
     * snapshotState, checkpoint complete and aborted, source events of a source that declares them,
     * no-more-splits), runs with a context class loader of the rule's own and must leave exactly
     * that one behind; so must {@code wakeup()} on another thread.
     */
    public void contextClassLoaderIsRestored() throws Exception {
        isolation.contextClassLoaderIsRestored();
    }

    /**
     * Reads a few turns, then stops polling: while the reader idles, its snapshot stays what it was
     * (its fetch threads may keep fetching, but only emitting moves the state).
     */
    public void noBackgroundThreadChangesSnapshotState() throws Exception {
        isolation.noBackgroundThreadChangesSnapshotState();
    }

    /**
     * Opens a reader, reads a little, closes it: within the bound every thread it started has
     * ended.
     */
    public void closeLeavesNoThreadBehind() throws Exception {
        isolation.closeLeavesNoThreadBehind();
    }
}
