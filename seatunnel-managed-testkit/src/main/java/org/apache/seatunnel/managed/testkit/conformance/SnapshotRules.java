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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.PollStatus;

/**
 * The snapshot rules of the reader contract: a snapshot and the records emitted before it agree,
 * splits added in a turn are in its snapshot, and repeated callbacks change nothing.
 *
 * <p>Threading: one test thread per instance; see {@link ConformanceRules}.
 */
final class SnapshotRules<T, SplitT extends SourceSplit> extends ReaderRuleSupport<T, SplitT> {
    SnapshotRules(ConformanceTarget<T, SplitT> target, ExpectedRecords expected) {
        super(target, expected);
    }

    /** See {@link ConformanceRules#snapshotAndEmitAreAtomic()}. */
    void snapshotAndEmitAreAtomic() throws Exception {
        ConformanceRule rule = ConformanceRule.SNAPSHOT_EMIT_ATOMIC;
        Random rnd = new Random(target.seed() ^ 0x9E3779B97F4A7C15L);
        List<byte[][]> snapshots = new ArrayList<>();
        List<Integer> emittedAt = new ArrayList<>();
        List<String> all;
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.noMoreSplits();
            long checkpoint = 0;
            boolean snappedWithMore = false;
            long deadline = System.nanoTime() + target.readBoundNanos();
            for (; ; ) {
                int max = 1 + rnd.nextInt(16);
                ReaderDriver.TurnResult r = d.turn(max, max, TimeUnit.MILLISECONDS.toNanos(5));
                boolean firstWithMore = !snappedWithMore && r.status == PollStatus.MORE_AVAILABLE;
                if (snapshots.size() < 6 && (firstWithMore || rnd.nextInt(3) == 0)) {
                    snappedWithMore |= r.status == PollStatus.MORE_AVAILABLE;
                    snapshots.add(serialize(rule, d.snapshot(++checkpoint)));
                    emittedAt.add(d.emitted().size());
                }
                if (r.status == PollStatus.END_OF_INPUT) {
                    break;
                }
                if (r.status == PollStatus.NOTHING_AVAILABLE) {
                    d.awaitAvailable();
                    // Data just became available and no turn took it yet: a fetch side that moved
                    // positions shows here even when every turn drained what was fetched (a
                    // fetch thread slower than the loop never leaves a turn MORE_AVAILABLE).
                    if (!snappedWithMore && snapshots.size() < 6) {
                        snappedWithMore = true;
                        snapshots.add(serialize(rule, d.snapshot(++checkpoint)));
                        emittedAt.add(d.emitted().size());
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    throw violation(rule, "the fixture data was not read within the read bound");
                }
            }
            all = new ArrayList<>(d.emitted());
        }
        assertSameRecords(rule, "records read in turns with snapshots", all);
        for (int i = 0; i < snapshots.size(); i++) {
            List<String> restored = readFrom(rule, snapshots.get(i));
            assertRestoredRemainder(
                    rule,
                    "snapshot " + (i + 1) + " (taken after " + emittedAt.get(i) + " records)",
                    all.subList(0, emittedAt.get(i)),
                    restored);
        }
    }

    /** See {@link ConformanceRules#snapshotIncludesSplitsAddedInTheSameTurn()}. */
    void snapshotIncludesSplitsAddedInTheSameTurn() throws Exception {
        ConformanceRule rule = ConformanceRule.SNAPSHOT_INCLUDES_NEW_SPLITS;
        List<SplitT> splits = target.splits();
        int half = splits.size() / 2;
        List<SplitT> first = splits.subList(0, half);
        List<SplitT> late = splits.subList(half, splits.size());
        byte[][] snapshot;
        List<String> emittedBefore;
        try (ReaderDriver<T, SplitT> d = open()) {
            if (!first.isEmpty()) {
                d.addSplits(first);
            }
            d.turn(8, 8, TimeUnit.MILLISECONDS.toNanos(5));
            d.addSplits(late);
            List<SplitT> state = d.snapshot(1);
            Set<String> ids = new HashSet<>();
            for (SplitT s : state) {
                ids.add(s.splitId());
            }
            for (SplitT s : late) {
                if (!ids.contains(s.splitId())) {
                    throw violation(
                            rule,
                            "split "
                                    + s.splitId()
                                    + " was added right before snapshotState but the snapshot"
                                    + " holds only "
                                    + first(ids, 10));
                }
            }
            snapshot = serialize(rule, state);
            emittedBefore = new ArrayList<>(d.emitted());
        }
        assertRestoredRemainder(
                rule, "the snapshot after addSplits", emittedBefore, readFrom(rule, snapshot));
    }

    /** See {@link ConformanceRules#duplicateAddSplitsIsIdempotent()}. */
    void duplicateAddSplitsIsIdempotent() throws Exception {
        ConformanceRule rule = ConformanceRule.ADD_SPLITS_IDEMPOTENT;
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.addSplits(target.splits());
            readSome(d, 3, 8);
            d.addSplits(target.splits());
            d.noMoreSplits();
            d.readToEnd(rule);
            assertSameRecords(rule, "records read with every split added three times", d.emitted());
        }
    }

    /** See {@link ConformanceRules#callbacksAreIdempotent()}. */
    void callbacksAreIdempotent() throws Exception {
        ConformanceRule rule = ConformanceRule.CALLBACK_IDEMPOTENT;
        Random rnd = new Random(target.seed() ^ 0x1DE4C0DEL);
        long deadline = System.nanoTime() + target.readBoundNanos();
        int noMoreAfter = rnd.nextInt(8);
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            AtomicLong ids = new AtomicLong();
            for (int turn = 0; ; turn++) {
                if (turn == noMoreAfter) {
                    d.noMoreSplits();
                }
                int max = 1 + rnd.nextInt(16);
                ReaderDriver.TurnResult r = d.turn(max, max, TimeUnit.MILLISECONDS.toNanos(5));
                if (r.status == PollStatus.END_OF_INPUT) {
                    break;
                }
                switch (rnd.nextInt(5)) {
                    case 0:
                        {
                            long id = ids.incrementAndGet();
                            d.snapshot(id);
                            d.checkpointComplete(id);
                            repeated(
                                    rule,
                                    d,
                                    ids,
                                    "notifyCheckpointComplete(" + id + ")",
                                    () -> d.checkpointComplete(id));
                        }
                        break;
                    case 1:
                        {
                            long id = ids.incrementAndGet();
                            d.snapshot(id);
                            d.checkpointAborted(id);
                            repeated(
                                    rule,
                                    d,
                                    ids,
                                    "notifyCheckpointAborted(" + id + ")",
                                    () -> d.checkpointAborted(id));
                        }
                        break;
                    case 2:
                        if (d.noMoreSignalled()) {
                            repeated(rule, d, ids, "handleNoMoreSplits()", d::noMoreSplits);
                        }
                        break;
                    case 3:
                        {
                            List<SplitT> held = copy(d.snapshot(ids.incrementAndGet()));
                            if (!held.isEmpty()) {
                                repeated(
                                        rule,
                                        d,
                                        ids,
                                        "addSplits of the " + held.size() + " splits it holds",
                                        () -> d.addSplits(held));
                            }
                        }
                        break;
                    default:
                        break;
                }
                if (r.status == PollStatus.NOTHING_AVAILABLE) {
                    if (d.drained()) {
                        d.noMoreSplits();
                    } else {
                        d.awaitAvailable();
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    throw violation(rule, "the fixture data was not read within the read bound");
                }
            }
            assertSameRecords(rule, "records read with repeated callbacks", d.emitted());
        }
    }

    /** A reader call made a second time. */
    private interface Call {
        void run() throws Exception;
    }

    private void repeated(
            ConformanceRule rule, ReaderDriver<T, SplitT> d, AtomicLong ids, String what, Call call)
            throws Exception {
        byte[][] before = serialize(rule, d.snapshot(ids.incrementAndGet()));
        call.run();
        byte[][] after = serialize(rule, d.snapshot(ids.incrementAndGet()));
        if (!Arrays.deepEquals(before, after)) {
            throw violation(
                    rule,
                    "a repeated "
                            + what
                            + " changed the snapshot from "
                            + describe(before)
                            + " to "
                            + describe(after));
        }
    }
}
