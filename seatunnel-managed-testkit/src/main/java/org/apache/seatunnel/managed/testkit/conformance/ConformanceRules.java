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

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

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
    private final ConformanceTarget<T, SplitT> target;
    private List<String> expected;

    public ConformanceRules(ConformanceTarget<T, SplitT> target) {
        this.target = target;
    }

    /**
     * Every record of the fixture data, as read by one reader with every split assigned up front
     * and no interference: the reference the other rules compare against.
     */
    public List<String> expectedRecords() throws Exception {
        if (expected == null) {
            try (ReaderDriver<T, SplitT> d = ReaderDriver.open(target)) {
                d.addSplits(target.splits());
                d.noMoreSplits();
                d.readToEnd(ConformanceRule.READS_FIXTURE_TO_END);
                expected = Collections.unmodifiableList(new ArrayList<>(d.emitted()));
            }
            if (expected.isEmpty()) {
                throw violation(
                        ConformanceRule.READS_FIXTURE_TO_END,
                        "the fixture splits hold no records; the rules need some");
            }
            Map<String, Integer> dup = duplicates(expected);
            if (!dup.isEmpty()) {
                throw violation(
                        ConformanceRule.READS_FIXTURE_TO_END,
                        "record keys of the fixture data are not unique (or the reader duplicates"
                                + " records): "
                                + first(dup.keySet(), 5));
            }
        }
        return expected;
    }

    // ------------------------------------------------------------------ POLL_WITHIN_BUDGET

    /**
     * Turns with random record limits and yield points: each turn emits at most its record limit,
     * at most {@code recordsPerShouldYield} records after {@code shouldYield()} turned true, and
     * returns within its deadline plus the grace.
     */
    public void pollReturnsWithinBudgetAndHonoursShouldYield() throws Exception {
        ConformanceRule rule = ConformanceRule.POLL_WITHIN_BUDGET;
        Random rnd = new Random(target.seed());
        long soft = TimeUnit.MILLISECONDS.toNanos(20);
        long deadline = System.nanoTime() + target.readBoundNanos();
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.noMoreSplits();
            for (int turn = 0; ; turn++) {
                int max = 1 + rnd.nextInt(32);
                int yieldAfter = 1 + rnd.nextInt(max);
                ReaderDriver.TurnResult r = d.turn(max, yieldAfter, soft);
                if (r.records > max) {
                    throw violation(
                            rule,
                            "turn "
                                    + turn
                                    + " emitted "
                                    + r.records
                                    + " records; its limit was "
                                    + max);
                }
                if (r.recordsAfterYield > target.recordsPerShouldYield()) {
                    throw violation(
                            rule,
                            "turn "
                                    + turn
                                    + " emitted "
                                    + r.recordsAfterYield
                                    + " records after shouldYield() turned true (allowed "
                                    + target.recordsPerShouldYield()
                                    + ")");
                }
                if (r.tookNanos > soft + target.turnGraceNanos()) {
                    throw violation(
                            rule,
                            "turn "
                                    + turn
                                    + " took "
                                    + TimeUnit.NANOSECONDS.toMillis(r.tookNanos)
                                    + " ms; its deadline was "
                                    + TimeUnit.NANOSECONDS.toMillis(soft)
                                    + " ms (+ "
                                    + TimeUnit.NANOSECONDS.toMillis(target.turnGraceNanos())
                                    + " ms grace)");
                }
                if (r.status == PollStatus.END_OF_INPUT) {
                    break;
                }
                if (r.status == PollStatus.NOTHING_AVAILABLE) {
                    d.awaitAvailable();
                }
                if (System.nanoTime() - deadline > 0) {
                    throw violation(rule, "the fixture data was not read within the read bound");
                }
            }
            assertSameRecords(rule, "records read in budgeted turns", d.emitted());
        }
    }

    // ------------------------------------------------------------------ NO_LOST_WAKEUP

    /**
     * Splits arrive one by one at random points, with random pauses between NOTHING_AVAILABLE and
     * {@code isAvailable()} so the reader's own threads race the call: every future that should
     * complete does, within the availability bound, and every record arrives once.
     */
    public void noLostWakeupUnderAdversarialTiming() throws Exception {
        ConformanceRule rule = ConformanceRule.NO_LOST_WAKEUP;
        Random rnd = new Random(target.seed() ^ 0x5DEECE66DL);
        List<SplitT> pending = new ArrayList<>(target.splits());
        Collections.shuffle(pending, rnd);
        long deadline = System.nanoTime() + target.readBoundNanos();
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(Collections.singletonList(pending.remove(0)));
            boolean noMore = false;
            for (; ; ) {
                if (!noMore && pending.isEmpty()) {
                    d.noMoreSplits();
                    noMore = true;
                }
                ReaderDriver.TurnResult r = d.turn(64, 64, TimeUnit.MILLISECONDS.toNanos(5));
                if (r.status == PollStatus.END_OF_INPUT) {
                    break;
                }
                if (r.status == PollStatus.NOTHING_AVAILABLE) {
                    spin(rnd.nextInt(4) == 0 ? rnd.nextInt(2_000_000) : rnd.nextInt(2_000));
                    if (!pending.isEmpty() && rnd.nextInt(3) == 0) {
                        // A command arrives: the runtime polls again after applying it.
                        d.addSplits(Collections.singletonList(pending.remove(0)));
                        continue;
                    }
                    if (pending.isEmpty()) {
                        d.awaitAvailable();
                    } else if (!d.reader().isAvailable().isDone()) {
                        d.addSplits(Collections.singletonList(pending.remove(0)));
                    }
                } else if (!pending.isEmpty() && rnd.nextInt(8) == 0) {
                    d.addSplits(Collections.singletonList(pending.remove(0)));
                }
                if (System.nanoTime() - deadline > 0) {
                    throw violation(rule, "the fixture data was not read within the read bound");
                }
            }
            assertSameRecords(rule, "records read with splits arriving one by one", d.emitted());
        }
    }

    // ------------------------------------------------------------------ WAKEUP_THREAD_SAFE

    /**
     * Four threads call {@code wakeup()} 2,000 times each while the reader is read to its end: no
     * call throws or blocks past a second, the threads finish, and every record arrives once.
     */
    public void wakeupIsIdempotentAndThreadSafe() throws Exception {
        ConformanceRule rule = ConformanceRule.WAKEUP_THREAD_SAFE;
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.noMoreSplits();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicLong slowest = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Thread t =
                        new Thread(
                                () -> {
                                    try {
                                        for (int n = 0; n < 2000; n++) {
                                            long s = System.nanoTime();
                                            d.reader().wakeup();
                                            long took = System.nanoTime() - s;
                                            slowest.accumulateAndGet(took, Math::max);
                                        }
                                    } catch (Throwable e) {
                                        failure.compareAndSet(null, e);
                                    }
                                },
                                "conformance-wakeup-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            d.readToEnd(rule);
            for (Thread t : threads) {
                t.join(TimeUnit.NANOSECONDS.toMillis(target.readBoundNanos()));
                if (t.isAlive()) {
                    throw violation(rule, "a thread calling wakeup() did not finish: blocked");
                }
            }
            if (failure.get() != null) {
                throw new ConformanceViolation(
                        rule, "wakeup() threw " + failure.get() + seedNote(), failure.get());
            }
            if (slowest.get() > TimeUnit.SECONDS.toNanos(1)) {
                throw violation(
                        rule,
                        "a wakeup() call blocked for "
                                + TimeUnit.NANOSECONDS.toMillis(slowest.get())
                                + " ms");
            }
            assertSameRecords(rule, "records read while wakeup() was called", d.emitted());
        }
    }

    // ------------------------------------------------------------------ SNAPSHOT_EMIT_ATOMIC

    /**
     * Reads in turns of random size and snapshots between some of them, always including the first
     * turn that ended with more records available (records fetched but not emitted: where a
     * position moved by the fetch side shows); each snapshot restored into a fresh reader yields
     * exactly the records not yet emitted when it was taken.
     */
    public void snapshotAndEmitAreAtomic() throws Exception {
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

    // ------------------------------------------------------------------
    // SNAPSHOT_INCLUDES_NEW_SPLITS

    /**
     * Adds half the splits, runs a turn, adds the rest and snapshots at once: the snapshot holds
     * every split just added, and restoring it yields exactly the records not yet emitted.
     */
    public void snapshotIncludesSplitsAddedInTheSameTurn() throws Exception {
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

    // ------------------------------------------------------------------ ADD_SPLITS_IDEMPOTENT

    /**
     * Adds every split twice, reads part of the data, adds the splits (as first assigned) a third
     * time, reads to the end: every record arrives exactly once.
     */
    public void duplicateAddSplitsIsIdempotent() throws Exception {
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

    // ------------------------------------------------------------------
    // RESTORE_IN_FRESH_CLASS_LOADER

    /**
     * Snapshots part-way, then restores the snapshot's bytes in a reader of the source deserialized
     * into a fresh class loader (the connector's own classes loaded anew): it yields exactly the
     * records not yet emitted. Skipped (returns false) for targets without a source.
     */
    public boolean restoreInFreshClassLoader() throws Exception {
        ConformanceRule rule = ConformanceRule.RESTORE_IN_FRESH_CLASS_LOADER;
        SeaTunnelSource<T, SplitT, ?> source = target.source();
        if (source == null) {
            return false;
        }
        byte[][] snapshot;
        List<String> emittedBefore;
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.noMoreSplits();
            int wanted = Math.max(1, expectedRecords().size() / 2);
            while (d.emitted().size() < wanted) {
                ReaderDriver.TurnResult r = d.turn(8, 8, TimeUnit.MILLISECONDS.toNanos(5));
                if (r.status == PollStatus.END_OF_INPUT) {
                    break;
                }
                if (r.status == PollStatus.NOTHING_AVAILABLE) {
                    d.awaitAvailable();
                }
            }
            snapshot = serialize(rule, d.snapshot(1));
            emittedBefore = new ArrayList<>(d.emitted());
        }
        List<String> restored;
        FreshClassLoader created;
        try {
            created = FreshClassLoader.forClassOf(source);
        } catch (IllegalStateException e) {
            throw new ConformanceViolation(
                    rule,
                    "the source class "
                            + source.getClass().getName()
                            + " has no code source (a jar or classes folder) to load anew: "
                            + e.getMessage(),
                    e);
        }
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        try (FreshClassLoader loader = created) {
            // As the engine runs a connector: its own loader is the thread's context loader (what
            // Java-serialized state resolves its classes with).
            thread.setContextClassLoader(loader);
            SeaTunnelSource<T, SplitT, ?> fresh;
            try {
                fresh = loader.copy(source);
            } catch (IOException | ClassNotFoundException | LinkageError | RuntimeException e) {
                throw new ConformanceViolation(
                        rule,
                        "the source could not be copied into a fresh class loader ("
                                + loader.describe()
                                + "): "
                                + e
                                + ". The engine ships the source by Java serialization and"
                                + " loads the connector's classes in a loader of their own, so"
                                + " every object the source holds must be serializable, and a"
                                + " class the source extends or holds that is not in the"
                                + " connector's code (another module's classes) comes from"
                                + " another loader: a package-private class, constructor or"
                                + " member across the two fails (InvalidClassException \"no"
                                + " valid constructor\", IllegalAccessError). Keep the source's"
                                + " classes in the connector's own code and give classes it"
                                + " extends public or protected constructors, or run the suite"
                                + " on the packaged connector jar (tools/conformance.sh).",
                        e);
            }
            if (fresh.getClass().getClassLoader() != loader) {
                throw violation(
                        rule,
                        "the source class "
                                + source.getClass().getName()
                                + " was not loaded anew (its code source could not be found)");
            }
            Serializer<SplitT> serializer = fresh.getSplitSerializer();
            List<SplitT> splits = new ArrayList<>();
            for (byte[] b : snapshot) {
                try {
                    splits.add(serializer.deserialize(b));
                } catch (IOException | RuntimeException e) {
                    throw new ConformanceViolation(
                            rule,
                            "the fresh class loader's split serializer refused a snapshot: " + e,
                            e);
                }
            }
            ReaderDriver.DriverContext ctx = new ReaderDriver.DriverContext();
            SourceReader<T, SplitT> reader = fresh.createReader(ctx);
            try (ReaderDriver<T, SplitT> d = ReaderDriver.wrap(target, reader, ctx)) {
                d.addSplits(splits);
                d.noMoreSplits();
                d.readToEnd(rule);
                restored = new ArrayList<>(d.emitted());
            }
        } finally {
            thread.setContextClassLoader(context);
        }
        assertRestoredRemainder(
                rule, "the snapshot restored in a fresh class loader", emittedBefore, restored);
        return true;
    }

    // ------------------------------------------------------------------ SERIALIZERS_ROUND_TRIP

    /**
     * Split serializer (fixture splits and a mid-way snapshot), enumerator state serializer (a
     * fresh enumerator's state) and event serializer (the target's events): serialize, deserialize
     * and serialize again gives the same bytes; every truncation is refused with an IOException;
     * seeded bit flips never escape as anything but an IOException.
     */
    public void serializersRoundTripAndRefuseMalformedInput() throws Exception {
        ConformanceRule rule = ConformanceRule.SERIALIZERS_ROUND_TRIP;
        Random rnd = new Random(target.seed() ^ 0xC0FFEEL);
        List<SplitT> samples = new ArrayList<>(target.splits());
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.turn(8, 8, TimeUnit.MILLISECONDS.toNanos(5));
            samples.addAll(d.snapshot(1));
        }
        for (SplitT s : samples) {
            SplitT back = checkRoundTrip(rule, "split", target.splitSerializer(), s, rnd);
            if (!s.splitId().equals(back.splitId())) {
                throw violation(
                        rule, "split id " + s.splitId() + " came back as " + back.splitId());
            }
        }
        SeaTunnelSource<T, SplitT, ?> source = target.source();
        if (source != null) {
            checkEnumeratorState(rule, source, rnd);
            if (source instanceof SupportManagedSource) {
                Serializer<SourceEvent> events =
                        ((SupportManagedSource) source).managedSourceEventSerializer();
                for (SourceEvent e : target.events()) {
                    if (events == null) {
                        throw violation(rule, "events given but the source has no serializer");
                    }
                    checkRoundTrip(rule, "source event", events, e, rnd);
                }
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void checkEnumeratorState(
            ConformanceRule rule, SeaTunnelSource<T, SplitT, ?> source, Random rnd)
            throws Exception {
        RecordingEnumeratorContext<SplitT> ctx = new RecordingEnumeratorContext<>(1);
        SourceSplitEnumerator enumerator = source.createEnumerator(ctx);
        Object state;
        try {
            enumerator.open();
            state = enumerator.snapshotState(1);
        } finally {
            enumerator.close();
        }
        if (state != null) {
            Serializer ser = source.getEnumeratorStateSerializer();
            checkRoundTrip(rule, "enumerator state", ser, state, rnd);
        }
    }

    private <V> V checkRoundTrip(
            ConformanceRule rule, String what, Serializer<V> ser, V value, Random rnd)
            throws Exception {
        byte[] bytes = ser.serialize(value);
        V back;
        try {
            back = ser.deserialize(bytes);
        } catch (IOException | RuntimeException e) {
            throw new ConformanceViolation(
                    rule,
                    what + " could not be read back from its own bytes: " + e + seedNote(),
                    e);
        }
        byte[] again = ser.serialize(back);
        if (!Arrays.equals(bytes, again)) {
            throw violation(rule, what + " serialized differently after a round trip");
        }
        for (int len = 0; len < bytes.length; len++) {
            byte[] cut = Arrays.copyOf(bytes, len);
            try {
                ser.deserialize(cut);
                throw violation(
                        rule,
                        what + " accepted its bytes truncated to " + len + " of " + bytes.length);
            } catch (IOException expected) {
                // Refused as it should be.
            } catch (RuntimeException e) {
                throw new ConformanceViolation(
                        rule,
                        what
                                + " threw "
                                + e.getClass().getName()
                                + " instead of an IOException for bytes truncated to "
                                + len
                                + javaSerializationHint(ser)
                                + seedNote(),
                        e);
            }
        }
        for (int i = 0; i < 64 && bytes.length > 0; i++) {
            byte[] flipped = bytes.clone();
            flipped[rnd.nextInt(flipped.length)] ^= (byte) (1 << rnd.nextInt(8));
            try {
                ser.deserialize(flipped);
            } catch (IOException refused) {
                // Refused, or decoded into another value: both fine for a flipped bit.
            } catch (RuntimeException e) {
                throw new ConformanceViolation(
                        rule,
                        what
                                + " threw "
                                + e.getClass().getName()
                                + " instead of an IOException for a flipped bit"
                                + seedNote(),
                        e);
            }
        }
        return back;
    }

    // ------------------------------------------------------------------ NO_BACKGROUND_STATE_CHANGE

    /**
     * Reads a few turns, then stops polling: while the reader idles, its snapshot stays what it was
     * (its fetch threads may keep fetching, but only emitting moves the state).
     */
    public void noBackgroundThreadChangesSnapshotState() throws Exception {
        ConformanceRule rule = ConformanceRule.NO_BACKGROUND_STATE_CHANGE;
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.noMoreSplits();
            readSome(d, 3, 4);
            byte[][] first = serialize(rule, d.snapshot(1));
            long[] checkpoint = {1};
            // The whole window counts: a change at any point of it is a violation, even one that
            // stops later (a fetch thread that advanced positions until its queue was full).
            boolean changed;
            try {
                Awaitility.await()
                        .atMost(target.idleObservation())
                        .pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(10))
                        .until(
                                () ->
                                        !Arrays.deepEquals(
                                                first,
                                                serialize(rule, d.snapshot(++checkpoint[0]))));
                changed = true;
            } catch (ConditionTimeoutException stable) {
                changed = false;
            }
            if (changed) {
                throw violation(
                        rule,
                        "the snapshot changed while nothing was polled (a background thread moves"
                                + " split state)");
            }
        }
    }

    // ------------------------------------------------------------------ CLOSE_LEAVES_NO_THREAD

    /**
     * Opens a reader, reads a little, closes it: within the bound every thread it started has
     * ended.
     */
    public void closeLeavesNoThreadBehind() throws Exception {
        ConformanceRule rule = ConformanceRule.CLOSE_LEAVES_NO_THREAD;
        // The reference read first: its reader's threads are not this reader's.
        expectedRecords();
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        ReaderDriver<T, SplitT> d = open();
        try {
            d.addSplits(target.splits());
            readSome(d, 3, 4);
        } finally {
            d.close();
        }
        try {
            Awaitility.await()
                    .atMost(target.closeBound())
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> newThreads(before).isEmpty());
        } catch (ConditionTimeoutException e) {
            throw violation(
                    rule,
                    "threads still alive "
                            + target.closeBound().toMillis()
                            + " ms after close(): "
                            + newThreads(before));
        }
    }

    private static List<String> newThreads(Set<Thread> before) {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            // The common pool serves CompletableFuture callbacks of anyone; not the reader's.
            if (t.isAlive()
                    && !before.contains(t)
                    && !t.getName().startsWith("ForkJoinPool.commonPool")
                    && !t.getName().startsWith("awaitility")) {
                names.add(t.getName());
            }
        }
        return names;
    }

    // ------------------------------------------------------------------ CALLBACK_IDEMPOTENT

    /**
     * Reads the fixture in turns of random size; between turns, at random, a checkpoint completes
     * twice, a checkpoint is aborted twice, no-more-splits arrives again, or the splits the reader
     * holds (as its snapshot has them) are assigned again, as a re-delivered command would be. The
     * snapshot right after each repeated call equals the one right before it, and every record
     * arrives exactly once.
     */
    public void callbacksAreIdempotent() throws Exception {
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

    /** The splits of a snapshot as new objects, so the reader shares none with the driver. */
    private List<SplitT> copy(List<SplitT> splits) throws IOException {
        List<SplitT> out = new ArrayList<>(splits.size());
        for (SplitT s : splits) {
            out.add(target.splitSerializer().deserialize(target.splitSerializer().serialize(s)));
        }
        return out;
    }

    private String describe(byte[][] snapshot) throws IOException {
        List<String> out = new ArrayList<>();
        for (byte[] b : snapshot) {
            out.add(String.valueOf(target.splitSerializer().deserialize(b)));
        }
        return first(out, 6);
    }

    // ------------------------------------------------------------------ SOURCE_EVENTS_DECLARED

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
        ConformanceRule rule = ConformanceRule.SOURCE_EVENTS_DECLARED;
        SeaTunnelSource<T, SplitT, ?> source = target.source();
        if (source == null) {
            return false;
        }
        Serializer<SourceEvent> declared =
                source instanceof SupportManagedSource
                        ? ((SupportManagedSource) source).managedSourceEventSerializer()
                        : null;
        if (declared == null) {
            List<SourceEvent> events = new ArrayList<>(target.events());
            events.add(new ProbeEvent());
            try (ReaderDriver<T, SplitT> d = open()) {
                d.addSplits(target.splits());
                readSome(d, 2, 8);
                byte[][] before = serialize(rule, d.snapshot(1));
                for (SourceEvent e : events) {
                    try {
                        d.sourceEvent(e);
                    } catch (RuntimeException refused) {
                        // Refusing an event it does not know is fine: Lane A never delivers one.
                    }
                }
                byte[][] after = serialize(rule, d.snapshot(2));
                if (!Arrays.deepEquals(before, after)) {
                    throw violation(
                            rule,
                            "handleSourceEvent changed the snapshot from "
                                    + describe(before)
                                    + " to "
                                    + describe(after)
                                    + ", but the source declares no managedSourceEventSerializer():"
                                    + " Lane A delivers no events to it");
                }
                d.noMoreSplits();
                d.readToEnd(rule);
                List<String> got = d.emitted();
                Map<String, Integer> want = multiset(expectedRecords());
                if (!want.equals(multiset(got))) {
                    throw violation(
                            rule,
                            "the records changed after source events were delivered ("
                                    + got.size()
                                    + " instead of "
                                    + expectedRecords().size()
                                    + "), but the source declares no"
                                    + " managedSourceEventSerializer(): Lane A delivers no events"
                                    + " to it");
                }
            }
            return true;
        }
        if (target.events().isEmpty()) {
            return true;
        }
        byte[][] snapshot;
        List<String> rest;
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.noMoreSplits();
            readSome(d, 2, 8);
            for (SourceEvent e : target.events()) {
                d.sourceEvent(roundTrip(rule, declared, e));
            }
            readSome(d, 2, 8);
            snapshot = serialize(rule, d.snapshot(1));
            int at = d.emitted().size();
            d.readToEnd(rule);
            rest = new ArrayList<>(d.emitted().subList(at, d.emitted().size()));
        }
        List<SplitT> splits = new ArrayList<>();
        for (byte[] b : snapshot) {
            splits.add(target.splitSerializer().deserialize(b));
        }
        List<String> restored;
        try (ReaderDriver<T, SplitT> d = open()) {
            if (!splits.isEmpty()) {
                d.addSplits(splits);
            }
            if (target.eventsResentAfterRestore()) {
                for (SourceEvent e : target.events()) {
                    d.sourceEvent(roundTrip(rule, declared, e));
                }
            }
            d.noMoreSplits();
            d.readToEnd(rule);
            restored = new ArrayList<>(d.emitted());
        }
        if (!multiset(rest).equals(multiset(restored))) {
            compare(
                    rule,
                    "a snapshot taken after source events, restored "
                            + (target.eventsResentAfterRestore()
                                    ? "with the events sent again"
                                    : "without them (events are not checkpointed: keep what"
                                            + " an event changed in the split state, or declare"
                                            + " eventsResentAfterRestore if the enumerator sends"
                                            + " them again)"),
                    rest,
                    restored);
        }
        return true;
    }

    private static SourceEvent roundTrip(
            ConformanceRule rule, Serializer<SourceEvent> ser, SourceEvent e) throws IOException {
        try {
            return ser.deserialize(ser.serialize(e));
        } catch (IOException | RuntimeException ex) {
            throw new ConformanceViolation(
                    rule, "the declared event serializer cannot carry " + e + ": " + ex, ex);
        }
    }

    /** An event of no connector's kind: a reader must not depend on it. Immutable. */
    private static final class ProbeEvent implements SourceEvent {
        private static final long serialVersionUID = 1L;

        @Override
        public String toString() {
            return "ConformanceProbeEvent";
        }
    }

    // ------------------------------------------------------------ CONTEXT_CLASS_LOADER_RESTORED

    /**
     * Every reader call, from making the reader to close (open, addSplits, poll turns, isAvailable,
     * snapshotState, checkpoint complete and aborted, source events of a source that declares them,
     * no-more-splits), runs with a context class loader of the rule's own and must leave exactly
     * that one behind; so must {@code wakeup()} on another thread.
     */
    public void contextClassLoaderIsRestored() throws Exception {
        ConformanceRule rule = ConformanceRule.CONTEXT_CLASS_LOADER_RESTORED;
        SeaTunnelSource<T, SplitT, ?> source = target.source();
        boolean events =
                source instanceof SupportManagedSource
                        && ((SupportManagedSource) source).managedSourceEventSerializer() != null;
        expectedRecords();
        try (ReaderDriver<T, SplitT> d = ReaderDriver.open(target, true)) {
            d.fixtureRecords(expectedRecords().size());
            d.addSplits(target.splits());
            readSome(d, 2, 8);
            d.snapshot(1);
            d.checkpointComplete(1);
            d.snapshot(2);
            d.checkpointAborted(2);
            if (events) {
                for (SourceEvent e : target.events()) {
                    d.sourceEvent(e);
                }
            }
            AtomicReference<String> wakeupLeak = new AtomicReference<>();
            Thread waker =
                    new Thread(
                            () -> {
                                ReaderDriver.ContextLoader cl =
                                        ReaderDriver.ContextLoader.enter(true);
                                try {
                                    d.reader().wakeup();
                                } finally {
                                    try {
                                        cl.exit("wakeup");
                                    } catch (ConformanceViolation v) {
                                        wakeupLeak.set(v.getMessage());
                                    }
                                }
                            },
                            "conformance-wakeup");
            waker.setDaemon(true);
            waker.start();
            waker.join(target.closeBound().toMillis());
            if (wakeupLeak.get() != null) {
                throw violation(rule, "on another thread: " + wakeupLeak.get());
            }
            d.noMoreSplits();
            d.readToEnd(rule);
        }
    }

    // ------------------------------------------------------------------ WAKEUP_ENDS_BLOCKED_POLL

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
        ConformanceRule rule = ConformanceRule.WAKEUP_ENDS_BLOCKED_POLL;
        int records = expectedRecords().size();
        AtomicReference<Thread> loopThread = new AtomicReference<>();
        ExecutorService loop =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "conformance-loop");
                            t.setDaemon(true);
                            loopThread.set(t);
                            return t;
                        });
        ReaderDriver<T, SplitT> d = null;
        try {
            long bound = target.readBoundNanos();
            d =
                    loop.submit(
                                    () -> {
                                        ReaderDriver<T, SplitT> dd = open().fixtureRecords(records);
                                        dd.addSplits(target.splits());
                                        readUntilDrained(rule, dd);
                                        return dd;
                                    })
                            .get(bound, TimeUnit.NANOSECONDS);
            ReaderDriver<T, SplitT> driver = d;
            long turnNanos = target.blockedTurn().toNanos();
            AtomicBoolean inTurn = new AtomicBoolean();
            Future<ReaderDriver.TurnResult> turn =
                    loop.submit(
                            () -> {
                                inTurn.set(true);
                                try {
                                    return driver.turn(64, 64, turnNanos);
                                } finally {
                                    inTurn.set(false);
                                }
                            });
            try {
                Awaitility.await()
                        .atMost(Duration.ofNanos(target.availabilityBoundNanos()))
                        .pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(5))
                        .until(() -> turn.isDone() || (inTurn.get() && waiting(loopThread.get())));
            } catch (ConditionTimeoutException stillRunning) {
                // Inside the turn but not waiting (a busy wait): wake it all the same.
            }
            if (turn.isDone()) {
                turn.get();
                return false;
            }
            long woke = System.nanoTime();
            driver.reader().wakeup();
            try {
                Awaitility.await()
                        .atMost(target.wakeupBound())
                        .pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(1))
                        .until(turn::isDone);
            } catch (ConditionTimeoutException notWoken) {
                String state = String.valueOf(loopThread.get().getState());
                long waited;
                try {
                    turn.get(turnNanos + target.turnGraceNanos(), TimeUnit.NANOSECONDS);
                    waited = System.nanoTime() - woke;
                } catch (TimeoutException stuck) {
                    waited = -1;
                }
                throw violation(
                        rule,
                        "a poll turn waiting for data (its thread "
                                + state
                                + ") did not return within "
                                + target.wakeupBound().toMillis()
                                + " ms of wakeup(); "
                                + (waited < 0
                                        ? "it had not returned at its deadline either"
                                        : "it returned after "
                                                + TimeUnit.NANOSECONDS.toMillis(waited)
                                                + " ms (turn deadline "
                                                + target.blockedTurn().toMillis()
                                                + " ms)"));
            }
            turn.get();
            return true;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ConformanceViolation) {
                throw (ConformanceViolation) cause;
            }
            throw e;
        } finally {
            if (d != null) {
                ReaderDriver<T, SplitT> toClose = d;
                try {
                    loop.submit(
                                    () -> {
                                        toClose.close();
                                        return null;
                                    })
                            .get(target.closeBound().toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // The rule's own failure (if any) is the one to report.
                }
            }
            loop.shutdownNow();
        }
    }

    private void readUntilDrained(ConformanceRule rule, ReaderDriver<T, SplitT> d)
            throws Exception {
        long deadline = System.nanoTime() + target.readBoundNanos();
        while (!d.drained()) {
            ReaderDriver.TurnResult r = d.turn(64, 64, TimeUnit.MILLISECONDS.toNanos(5));
            if (r.status == PollStatus.END_OF_INPUT) {
                return;
            }
            if (r.status == PollStatus.NOTHING_AVAILABLE && !d.drained()) {
                d.awaitAvailable();
            }
            if (System.nanoTime() - deadline > 0) {
                throw violation(rule, "the fixture data was not read within the read bound");
            }
        }
    }

    private static boolean waiting(Thread t) {
        if (t == null) {
            return false;
        }
        Thread.State s = t.getState();
        return s == Thread.State.WAITING
                || s == Thread.State.TIMED_WAITING
                || s == Thread.State.BLOCKED;
    }

    // ------------------------------------------------------------------ helpers

    /** A new reader of the target that knows how many records the fixture holds. */
    private ReaderDriver<T, SplitT> open() throws Exception {
        int records = expectedRecords().size();
        return ReaderDriver.open(target).fixtureRecords(records);
    }

    /**
     * Up to {@code turns} turns of {@code max} records, waiting for availability after
     * NOTHING_AVAILABLE; stops early at END_OF_INPUT or once the reader drained the fixture without
     * having been told no more splits come (then nothing more is to be announced).
     */
    private void readSome(ReaderDriver<T, SplitT> d, int turns, int max) throws Exception {
        for (int i = 0; i < turns; i++) {
            ReaderDriver.TurnResult r = d.turn(max, max, TimeUnit.MILLISECONDS.toNanos(5));
            if (r.status == PollStatus.END_OF_INPUT) {
                return;
            }
            if (r.status == PollStatus.NOTHING_AVAILABLE) {
                if (d.drained()) {
                    return;
                }
                d.awaitAvailable();
            }
        }
    }

    private byte[][] serialize(ConformanceRule rule, List<SplitT> state) throws IOException {
        byte[][] out = new byte[state.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = target.splitSerializer().serialize(state.get(i));
        }
        return out;
    }

    /** Restores serialized splits into a fresh reader and reads them to the end. */
    private List<String> readFrom(ConformanceRule rule, byte[][] snapshot) throws Exception {
        List<SplitT> splits = new ArrayList<>();
        for (byte[] b : snapshot) {
            splits.add(target.splitSerializer().deserialize(b));
        }
        try (ReaderDriver<T, SplitT> d = open()) {
            if (!splits.isEmpty()) {
                d.addSplits(splits);
            }
            d.noMoreSplits();
            d.readToEnd(rule);
            return new ArrayList<>(d.emitted());
        }
    }

    private void assertSameRecords(ConformanceRule rule, String what, List<String> actual)
            throws Exception {
        compare(rule, what, expectedRecords(), actual);
    }

    private void assertRestoredRemainder(
            ConformanceRule rule, String what, List<String> emittedBefore, List<String> restored)
            throws Exception {
        Map<String, Integer> want = multiset(expectedRecords());
        for (String k : emittedBefore) {
            want.merge(k, -1, Integer::sum);
        }
        want.values().removeIf(v -> v == 0);
        List<String> expectedRest = new ArrayList<>();
        for (Map.Entry<String, Integer> e : want.entrySet()) {
            for (int i = 0; i < e.getValue(); i++) {
                expectedRest.add(e.getKey());
            }
        }
        compare(rule, what, expectedRest, restored);
    }

    private void compare(
            ConformanceRule rule, String what, List<String> expectedList, List<String> actual) {
        Map<String, Integer> want = multiset(expectedList);
        Map<String, Integer> got = multiset(actual);
        if (want.equals(got)) {
            return;
        }
        List<String> missing = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        Set<String> keys = new HashSet<>(want.keySet());
        keys.addAll(got.keySet());
        for (String k : new java.util.TreeSet<>(keys)) {
            int w = want.getOrDefault(k, 0);
            int g = got.getOrDefault(k, 0);
            for (int i = g; i < w; i++) {
                missing.add(k);
            }
            for (int i = w; i < g; i++) {
                extra.add(k);
            }
        }
        throw violation(
                rule,
                what
                        + ": "
                        + missing.size()
                        + " records missing "
                        + first(missing, 5)
                        + ", "
                        + extra.size()
                        + " duplicated or unexpected "
                        + first(extra, 5)
                        + " (expected "
                        + expectedList.size()
                        + ", got "
                        + actual.size()
                        + ")");
    }

    private static Map<String, Integer> multiset(List<String> keys) {
        Map<String, Integer> m = new TreeMap<>();
        for (String k : keys) {
            m.merge(k, 1, Integer::sum);
        }
        return m;
    }

    private static Map<String, Integer> duplicates(List<String> keys) {
        Map<String, Integer> m = multiset(keys);
        m.values().removeIf(v -> v == 1);
        return m;
    }

    private static String first(java.util.Collection<String> items, int n) {
        List<String> out = new ArrayList<>();
        for (String s : items) {
            if (out.size() == n) {
                out.add("...");
                break;
            }
            out.add(s);
        }
        return out.toString();
    }

    private static String javaSerializationHint(Serializer<?> ser) {
        return ser instanceof org.apache.seatunnel.api.serialization.DefaultSerializer
                ? " (SeaTunnel's DefaultSerializer, i.e. Java serialization, reports malformed input"
                        + " as a RuntimeException; give checkpointed state a versioned serializer)"
                : "";
    }

    private ConformanceViolation violation(ConformanceRule rule, String observed) {
        return new ConformanceViolation(rule, observed + seedNote());
    }

    private String seedNote() {
        return " [replay: -Dconformance.seed=" + target.seed() + "]";
    }

    /** Busy-waits about {@code nanos}: a pause that keeps this thread runnable. */
    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.yield();
        }
    }
}
