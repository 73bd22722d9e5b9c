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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The isolation rules of the reader contract: a restore needs nothing of the old class loader, the
 * context class loader is restored, no background thread changes snapshot state, and close leaves
 * no thread behind.
 *
 * <p>Threading: one test thread per instance; see {@link ConformanceRules}.
 */
final class IsolationRules<T, SplitT extends SourceSplit> extends ReaderRuleSupport<T, SplitT> {
    IsolationRules(ConformanceTarget<T, SplitT> target, ExpectedRecords expected) {
        super(target, expected);
    }

    /** See {@link ConformanceRules#restoreInFreshClassLoader()}. */
    boolean restoreInFreshClassLoader() throws Exception {
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
            DriverContext ctx = new DriverContext();
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

    /** See {@link ConformanceRules#contextClassLoaderIsRestored()}. */
    void contextClassLoaderIsRestored() throws Exception {
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
                                ContextLoader cl = ContextLoader.enter(true);
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

    /** See {@link ConformanceRules#noBackgroundThreadChangesSnapshotState()}. */
    void noBackgroundThreadChangesSnapshotState() throws Exception {
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

    /** See {@link ConformanceRules#closeLeavesNoThreadBehind()}. */
    void closeLeavesNoThreadBehind() throws Exception {
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
}
