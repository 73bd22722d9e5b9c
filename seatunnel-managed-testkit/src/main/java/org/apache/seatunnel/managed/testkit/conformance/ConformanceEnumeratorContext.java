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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.concurrent.GuardedBy;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;

/**
 * The engine side an enumerator under test sees in the {@link EnumeratorDriver}: it records every
 * assignment in the {@link SplitLedger}, keeps what the engine knows of each reader (registered,
 * told no more splits, worth asking again for splits) and checks the rules that are checked as the
 * enumerator acts, failing on the spot with the steps that led there.
 *
 * <p>Threading: synchronized; the enumerator may call it from any thread, and the driver's test
 * thread changes reader state and the ledger only under this monitor. Scheduled work is served by
 * the driver's {@link DeterministicScheduler}, which runs on the driver's thread.
 */
final class ConformanceEnumeratorContext<SplitT extends SourceSplit>
        implements ManagedEnumeratorContext<SplitT> {
    private final EnumeratorTarget<SplitT, ?> target;
    private final boolean onDemand;
    private final ConformanceRule rule;
    private final Set<ConformanceRule> online;
    private final StepHistory steps;
    private final DeterministicScheduler scheduler;

    /** Changed under this monitor; the driver's thread reads it between its steps. */
    private final SplitLedger ledger;

    @GuardedBy("this")
    private final TreeSet<Integer> registered = new TreeSet<>();

    /** Readers told that no more splits will come. */
    @GuardedBy("this")
    private final boolean[] noMore;

    /** Readers the runtime would ask for splits: something changed for them since "nothing now". */
    @GuardedBy("this")
    private final boolean[] armed;

    /** Whether a split demand is being handled, and whether it assigned anything. */
    @GuardedBy("this")
    private boolean inDemand;

    @GuardedBy("this")
    private boolean assignedInDemand;

    ConformanceEnumeratorContext(
            EnumeratorTarget<SplitT, ?> target,
            boolean onDemand,
            ConformanceRule rule,
            Set<ConformanceRule> online,
            SplitLedger ledger,
            StepHistory steps,
            DeterministicScheduler scheduler) {
        this.target = target;
        this.onDemand = onDemand;
        this.rule = rule;
        this.online = online;
        this.ledger = ledger;
        this.steps = steps;
        this.scheduler = scheduler;
        this.noMore = new boolean[target.parallelism()];
        this.armed = new boolean[target.parallelism()];
    }

    // ------------------------------------------------------------------ reader state (driver)

    synchronized void markRegistered(int subtask) {
        registered.add(subtask);
        armed[subtask] = true;
    }

    synchronized List<Integer> unregisteredReaders() {
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < target.parallelism(); r++) {
            if (!registered.contains(r)) {
                out.add(r);
            }
        }
        return out;
    }

    synchronized List<Integer> registeredList() {
        return new ArrayList<>(registered);
    }

    /** The reader asked for splits on its own: worth asking again. */
    synchronized void arm(int subtask) {
        armed[subtask] = true;
    }

    /** The reader got nothing when asked: asked again only after something changed for it. */
    synchronized void disarm(int subtask) {
        armed[subtask] = false;
    }

    synchronized void beginDemand() {
        inDemand = true;
        assignedInDemand = false;
    }

    /** Ends the demand begun last; tells whether the enumerator assigned anything during it. */
    synchronized boolean endDemand() {
        inDemand = false;
        return assignedInDemand;
    }

    /** Registered, worth asking and not told that no more splits will come. */
    synchronized boolean askable(int subtask) {
        return registered.contains(subtask) && armed[subtask] && !noMore[subtask];
    }

    synchronized boolean noMoreSignalled(int subtask) {
        return noMore[subtask];
    }

    synchronized boolean allSignalledNoMore() {
        for (boolean b : noMore) {
            if (!b) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reader {@code subtask} failed: it is unregistered, and the splits it got since the last
     * checkpoint leave the ledger as handed back; returns them.
     */
    synchronized List<SplitT> readerFailed(int subtask) {
        List<SplitT> back = new ArrayList<>(ledger.<SplitT>since(subtask));
        ledger.sinceCheckpoint.remove(subtask);
        for (SplitT s : back) {
            ledger.holder.remove(s.splitId());
            ledger.returned.add(s.splitId());
        }
        registered.remove(subtask);
        noMore[subtask] = false;
        // Splits handed back may go to any reader, so every reader is worth asking again.
        Arrays.fill(armed, true);
        return back;
    }

    // ------------------------------------------------------------------ the enumerator's view

    @Override
    public int currentParallelism() {
        return target.parallelism();
    }

    @Override
    public synchronized Set<Integer> registeredReaders() {
        return Collections.unmodifiableSet(new TreeSet<>(registered));
    }

    @Override
    public synchronized void assignSplit(int subtask, List<SplitT> splits) {
        if (subtask < 0 || subtask >= target.parallelism()) {
            throw steps.violation(
                    rule,
                    "assignSplit to subtask "
                            + subtask
                            + " of a parallelism of "
                            + target.parallelism());
        }
        steps.step("assignSplit(" + subtask + ", " + StepHistory.ids(splits) + ")");
        if (noMore[subtask]) {
            String msg =
                    "splits "
                            + StepHistory.ids(splits)
                            + " were assigned to reader "
                            + subtask
                            + " after it was told no more splits would come";
            if (online.contains(ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE)) {
                throw steps.violation(ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE, msg);
            }
        }
        for (SplitT s : splits) {
            String id = s.splitId();
            Integer held = ledger.holder.get(id);
            if (held != null) {
                String msg =
                        "split "
                                + id
                                + " was assigned to reader "
                                + subtask
                                + " while reader "
                                + held
                                + " holds it";
                ledger.twice.add(id);
                if (online.contains(ConformanceRule.ENUMERATOR_NO_DUPLICATE_ASSIGNMENT)) {
                    throw steps.violation(ConformanceRule.ENUMERATOR_NO_DUPLICATE_ASSIGNMENT, msg);
                }
            }
            ledger.holder.put(id, subtask);
            ledger.returned.remove(id);
            ledger.bytes.put(id, bytes(s));
            ledger.sinceCheckpoint.computeIfAbsent(subtask, k -> new ArrayList<>()).add(s);
        }
        if (inDemand) {
            assignedInDemand = true;
        } else {
            // An assignment the enumerator made on its own: the runtime asks again.
            armed[subtask] = true;
        }
    }

    @Override
    public synchronized void signalNoMoreSplits(int subtask) {
        steps.step("signalNoMoreSplits(" + subtask + ")");
        if (!target.bounded()
                && online.contains(ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE)) {
            throw steps.violation(
                    ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE,
                    "the enumerator of an unbounded source signalled no-more-splits to reader "
                            + subtask);
        }
        noMore[subtask] = true;
    }

    @Override
    public void sendEventToSourceReader(int subtask, SourceEvent event) {}

    @Override
    public MetricsContext getMetricsContext() {
        return new DriverContext().getMetricsContext();
    }

    @Override
    public EventListener getEventListener() {
        return event -> {};
    }

    @Override
    public CoordinatorScheduler scheduler() {
        return scheduler;
    }

    @Override
    public boolean splitDemand() {
        return onDemand;
    }

    @Override
    public synchronized void splitsAvailable(int subtask) {
        armed[subtask] = true;
    }

    @Override
    public void close() {
        scheduler.close();
    }

    private byte[] bytes(SplitT split) {
        try {
            return target.splitSerializer().serialize(split);
        } catch (IOException e) {
            throw new IllegalStateException("the split serializer failed on " + split, e);
        }
    }
}
