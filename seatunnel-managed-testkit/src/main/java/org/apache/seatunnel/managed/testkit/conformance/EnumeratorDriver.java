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
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;

/**
 * Plays the engine around one enumerator instance, deterministically, on the calling thread:
 * readers register, ask, fail and hand splits back, checkpoints are taken, and scheduled work runs
 * when the schedule says so. A {@link SplitLedger} (which reader holds which split) outlives the
 * instance, so a restored enumerator is checked against what the readers restored.
 *
 * <p>Threading: owned by the test thread that created it; an enumerator calling its context from
 * another thread is served under the context's monitor.
 */
final class EnumeratorDriver<SplitT extends SourceSplit, StateT> implements AutoCloseable {
    private final EnumeratorTarget<SplitT, StateT> target;
    private final boolean onDemand;
    private final ConformanceRule rule;
    private final Set<ConformanceRule> online;
    private final Deque<String> history;
    private final SplitLedger ledger;
    private final Context context = new Context();
    private final DeterministicScheduler scheduler = new DeterministicScheduler();
    private final TreeSet<Integer> registered = new TreeSet<>();
    private final boolean[] noMore;
    private final boolean[] armed;
    private final SourceSplitEnumerator<SplitT, StateT> enumerator;
    private boolean ran;
    private boolean inDemand;
    private boolean assignedInDemand;
    private long checkpointId;

    private EnumeratorDriver(
            EnumeratorTarget<SplitT, StateT> target,
            boolean onDemand,
            ConformanceRule rule,
            Set<ConformanceRule> online,
            Deque<String> history,
            SplitLedger ledger,
            byte[] state,
            long checkpointId)
            throws Exception {
        this.target = target;
        this.onDemand = onDemand;
        this.rule = rule;
        this.online = online;
        this.history = history;
        this.ledger = ledger;
        this.noMore = new boolean[target.parallelism()];
        this.armed = new boolean[target.parallelism()];
        this.checkpointId = checkpointId;
        if (state == null) {
            step("create");
            enumerator = target.create(context);
        } else {
            step("restore from checkpoint " + checkpointId);
            enumerator = target.restore(context, target.stateSerializer().deserialize(state));
        }
        enumerator.open();
    }

    /** A fresh enumerator with an empty ledger. */
    static <SplitT extends SourceSplit, StateT> EnumeratorDriver<SplitT, StateT> fresh(
            EnumeratorTarget<SplitT, StateT> target,
            boolean onDemand,
            ConformanceRule rule,
            Set<ConformanceRule> online,
            Deque<String> history)
            throws Exception {
        return new EnumeratorDriver<>(
                target, onDemand, rule, online, history, new SplitLedger(), null, 0);
    }

    /** An enumerator restored from {@code snapshot}, its readers holding what they held then. */
    static <SplitT extends SourceSplit, StateT> EnumeratorDriver<SplitT, StateT> restored(
            EnumeratorTarget<SplitT, StateT> target,
            boolean onDemand,
            ConformanceRule rule,
            Set<ConformanceRule> online,
            Deque<String> history,
            EnumeratorSnapshot snapshot)
            throws Exception {
        return new EnumeratorDriver<>(
                target,
                onDemand,
                rule,
                online,
                history,
                snapshot.ledger.copy(),
                snapshot.state,
                snapshot.checkpointId);
    }

    String lane() {
        return onDemand ? "Lane A (split demand)" : "Lane B (assignment at registration)";
    }

    SplitLedger ledger() {
        return ledger;
    }

    // ------------------------------------------------------------------ engine steps

    void run() throws Exception {
        if (!ran) {
            ran = true;
            step("run()");
            enumerator.run();
        }
    }

    boolean ran() {
        return ran;
    }

    List<Integer> unregistered() {
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < target.parallelism(); r++) {
            if (!registered.contains(r)) {
                out.add(r);
            }
        }
        return out;
    }

    List<Integer> registered() {
        return new ArrayList<>(registered);
    }

    void register(int subtask) {
        step("registerReader(" + subtask + ")");
        synchronized (context) {
            registered.add(subtask);
            armed[subtask] = true;
        }
        enumerator.registerReader(subtask);
    }

    void splitRequest(int subtask) {
        step("handleSplitRequest(" + subtask + ")");
        armed[subtask] = true;
        enumerator.handleSplitRequest(subtask);
    }

    /** Lane A asks {@code subtask} for up to {@code max} splits; true if it got any. */
    boolean demand(int subtask, int max) {
        if (!(enumerator instanceof SupportSplitDemand)) {
            return false;
        }
        step("handleSplitDemand(" + subtask + ", " + max + ")");
        inDemand = true;
        assignedInDemand = false;
        try {
            ((SupportSplitDemand) enumerator).handleSplitDemand(subtask, max);
        } finally {
            inDemand = false;
        }
        if (!assignedInDemand) {
            // "Nothing now": asked again only after something changed for it.
            armed[subtask] = false;
        }
        return assignedInDemand;
    }

    boolean demandable(int subtask) {
        return onDemand
                && enumerator instanceof SupportSplitDemand
                && registered.contains(subtask)
                && armed[subtask]
                && !noMore[subtask];
    }

    boolean timer() {
        if (scheduler.pendingTimers() == 0) {
            return false;
        }
        step("timer");
        return scheduler.runNextTimer();
    }

    boolean async(int pick) {
        int n = scheduler.pendingAsync();
        if (n == 0) {
            return false;
        }
        step("complete async call");
        scheduler.completeAsync(Math.floorMod(pick, n));
        return true;
    }

    boolean scheduled() {
        return scheduler.pendingAsync() + scheduler.pendingTimers() > 0;
    }

    /** A checkpoint: the enumerator's state as bytes, and what the readers held at that point. */
    EnumeratorSnapshot checkpoint(boolean complete) throws Exception {
        long id = ++checkpointId;
        step("snapshotState(" + id + ")");
        StateT state = enumerator.snapshotState(id);
        byte[] bytes = target.stateSerializer().serialize(state);
        EnumeratorSnapshot s = new EnumeratorSnapshot(id, bytes, ledger.copy(), history.peekLast());
        ledger.sinceCheckpoint.clear();
        if (complete) {
            enumerator.notifyCheckpointComplete(id);
        }
        return s;
    }

    /**
     * Reader {@code subtask} fails: the splits it got since the last checkpoint go back to the
     * enumerator (it restores the rest from its own state), and it registers again later.
     */
    void fail(int subtask) {
        List<SplitT> back;
        synchronized (context) {
            back = new ArrayList<>(ledger.since(subtask));
            ledger.sinceCheckpoint.remove(subtask);
            for (SplitT s : back) {
                ledger.holder.remove(s.splitId());
                ledger.returned.add(s.splitId());
            }
            registered.remove(subtask);
            noMore[subtask] = false;
            armed[subtask] = false;
            Arrays.fill(armed, true);
        }
        step("reader " + subtask + " failed; addSplitsBack(" + ids(back) + ", " + subtask + ")");
        if (!back.isEmpty()) {
            enumerator.addSplitsBack(back, subtask);
        }
    }

    /** Every reader registers, run() happens, and scheduled work runs until nothing moves. */
    void drain(Random rnd, Map<String, byte[]> expected) throws Exception {
        for (int i = 0; i < target.maxDrainSteps(); i++) {
            List<Integer> waiting = unregistered();
            Collections.shuffle(waiting, rnd);
            for (int r : waiting) {
                register(r);
            }
            run();
            boolean progress = false;
            for (int r = 0; r < target.parallelism(); r++) {
                if (demandable(r)) {
                    progress |= demand(r, 1 + rnd.nextInt(4));
                }
            }
            if (done(expected)) {
                return;
            }
            if (scheduler.pendingAsync() > 0) {
                progress |= async(0);
            } else if (scheduler.pendingTimers() > 0) {
                progress |= timer();
            }
            if (!progress) {
                return;
            }
        }
    }

    private boolean done(Map<String, byte[]> expected) {
        if (expected == null || !ledger.holder.keySet().containsAll(expected.keySet())) {
            return false;
        }
        if (!target.bounded()) {
            return true;
        }
        for (boolean b : noMore) {
            if (!b) {
                return false;
            }
        }
        return true;
    }

    boolean noMoreSignalled(int subtask) {
        return noMore[subtask];
    }

    @Override
    public void close() throws Exception {
        try {
            enumerator.close();
        } finally {
            scheduler.close();
        }
    }

    // ------------------------------------------------------------------ reporting

    private void step(String what) {
        history.addLast(what);
        while (history.size() > 16) {
            history.removeFirst();
        }
    }

    /** A violation of {@code r} with the lane, the last steps and the seed. */
    ConformanceViolation violation(ConformanceRule r, String observed) {
        return new ConformanceViolation(
                r,
                observed
                        + " ("
                        + lane()
                        + "; last steps: "
                        + String.join(", ", history)
                        + ") [replay: -Dconformance.seed="
                        + target.seed()
                        + "]");
    }

    private static String ids(List<? extends SourceSplit> splits) {
        List<String> out = new ArrayList<>();
        for (SourceSplit s : splits) {
            out.add(s.splitId());
        }
        return out.toString();
    }

    byte[] bytes(SplitT split) {
        try {
            return target.splitSerializer().serialize(split);
        } catch (IOException e) {
            throw new IllegalStateException("the split serializer failed on " + split, e);
        }
    }

    /**
     * The fake engine context: records assignments in the ledger and no-more-splits signals, serves
     * the {@link DeterministicScheduler}. Threading: synchronized.
     */
    private final class Context implements ManagedEnumeratorContext<SplitT> {

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
                throw violation(
                        rule,
                        "assignSplit to subtask "
                                + subtask
                                + " of a parallelism of "
                                + target.parallelism());
            }
            step("assignSplit(" + subtask + ", " + ids(splits) + ")");
            if (noMore[subtask]) {
                String msg =
                        "splits "
                                + ids(splits)
                                + " were assigned to reader "
                                + subtask
                                + " after it was told no more splits would come";
                if (online.contains(ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE)) {
                    throw violation(ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE, msg);
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
                        throw violation(ConformanceRule.ENUMERATOR_NO_DUPLICATE_ASSIGNMENT, msg);
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
            step("signalNoMoreSplits(" + subtask + ")");
            if (!target.bounded()
                    && online.contains(ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE)) {
                throw violation(
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
    }
}
