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

import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;

/**
 * Plays the engine around one enumerator instance, deterministically, on the calling thread:
 * readers register, ask, fail and hand splits back, checkpoints are taken, and scheduled work runs
 * when the schedule says so. A {@link SplitLedger} (which reader holds which split) outlives the
 * instance, so a restored enumerator is checked against what the readers restored. What the
 * enumerator sees of the engine, and what the engine knows of each reader, is the {@link
 * ConformanceEnumeratorContext}; the steps played so far are the {@link StepHistory}.
 *
 * <p>Threading: owned by the test thread that created it; an enumerator calling its context from
 * another thread is served under the context's monitor.
 */
final class EnumeratorDriver<SplitT extends SourceSplit, StateT> implements AutoCloseable {
    private final EnumeratorTarget<SplitT, StateT> target;
    private final boolean onDemand;
    private final StepHistory steps;
    private final SplitLedger ledger;
    private final DeterministicScheduler scheduler = new DeterministicScheduler();
    private final ConformanceEnumeratorContext<SplitT> context;
    private final SourceSplitEnumerator<SplitT, StateT> enumerator;
    private boolean ran;
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
        this.steps = new StepHistory(history, lane(), target.seed());
        this.ledger = ledger;
        this.context =
                new ConformanceEnumeratorContext<>(
                        target, onDemand, rule, online, ledger, steps, scheduler);
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
        return context.unregisteredReaders();
    }

    List<Integer> registered() {
        return context.registeredList();
    }

    void register(int subtask) {
        step("registerReader(" + subtask + ")");
        context.markRegistered(subtask);
        enumerator.registerReader(subtask);
    }

    void splitRequest(int subtask) {
        step("handleSplitRequest(" + subtask + ")");
        context.arm(subtask);
        enumerator.handleSplitRequest(subtask);
    }

    /** Lane A asks {@code subtask} for up to {@code max} splits; true if it got any. */
    boolean demand(int subtask, int max) {
        if (!(enumerator instanceof SupportSplitDemand)) {
            return false;
        }
        step("handleSplitDemand(" + subtask + ", " + max + ")");
        context.beginDemand();
        boolean assigned;
        try {
            ((SupportSplitDemand) enumerator).handleSplitDemand(subtask, max);
        } finally {
            assigned = context.endDemand();
        }
        if (!assigned) {
            // "Nothing now": asked again only after something changed for it.
            context.disarm(subtask);
        }
        return assigned;
    }

    boolean demandable(int subtask) {
        return onDemand && enumerator instanceof SupportSplitDemand && context.askable(subtask);
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
        EnumeratorSnapshot s = new EnumeratorSnapshot(id, bytes, ledger.copy(), steps.last());
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
        List<SplitT> back = context.readerFailed(subtask);
        step(
                "reader "
                        + subtask
                        + " failed; addSplitsBack("
                        + StepHistory.ids(back)
                        + ", "
                        + subtask
                        + ")");
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
        return !target.bounded() || context.allSignalledNoMore();
    }

    boolean noMoreSignalled(int subtask) {
        return context.noMoreSignalled(subtask);
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
        steps.step(what);
    }

    /** A violation of {@code r} with the lane, the last steps and the seed. */
    ConformanceViolation violation(ConformanceRule r, String observed) {
        return steps.violation(r, observed);
    }
}
