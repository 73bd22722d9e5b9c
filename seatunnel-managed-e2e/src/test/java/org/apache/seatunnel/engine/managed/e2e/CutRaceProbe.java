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

package org.apache.seatunnel.engine.managed.e2e;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The JVM-static handshake that forces the coordinator-first cut of {@link CutRaceSource}
 * deterministically, keyed by run id (the engine ships the source to every member, so a static
 * registry is the only channel between the connector and the test):
 *
 * <p>Threading: written from engine threads (task threads, pool threads, operation threads, the
 * coordinator loop, the enumerator's assigning thread) and read by the test thread; every field is
 * a latch, an atomic or a concurrent collection, so no lock is needed.
 *
 * <ol>
 *   <li>the enumerator's first {@code snapshotState(N)} publishes N ({@link #snapshotRequested})
 *       and waits (bounded) until the reader holds its checkpoint lock inside a poll turn ({@link
 *       #readerHolding});
 *   <li>the enumerator returns its state (S1 still pending) and assigns S1 shortly after ({@link
 *       #s1Assigned});
 *   <li>the reader keeps holding until the assignment reached it (Lane B: its {@code addSplits};
 *       Lane A: the reader mailbox admitted a command), so the engine's barrier N, which needs the
 *       same lock, can only come after;
 *   <li>after checkpoint N completed and the sink committed it, the test arms a once-only reader
 *       fault ({@link #armFault}); the job restores from N.
 * </ol>
 *
 * It also keeps a timeline of what happened, printed by the test.
 */
final class CutRaceProbe {

    private static final Map<String, CutRaceProbe> RUNS = new ConcurrentHashMap<>();

    private final long startNanos = System.nanoTime();
    private final AtomicLong cutCheckpoint = new AtomicLong(-1);
    private final CountDownLatch readerHolding = new CountDownLatch(1);
    private final CountDownLatch s1Assigned = new CountDownLatch(1);
    private final CountDownLatch s1ReachedReader = new CountDownLatch(1);
    private final AtomicBoolean holdStarted = new AtomicBoolean();
    private final AtomicBoolean landedDuringHold = new AtomicBoolean();
    private final AtomicBoolean s1AppliedBeforeBarrierN = new AtomicBoolean();
    private final AtomicLong holdMillis = new AtomicLong(-1);
    private final AtomicBoolean faultArmed = new AtomicBoolean();
    private final AtomicBoolean faultFired = new AtomicBoolean();
    private final AtomicBoolean exhaustedAfterFault = new AtomicBoolean();
    private final AtomicInteger readersCreated = new AtomicInteger();
    private final AtomicInteger legacyPolls = new AtomicInteger();
    private final AtomicInteger managedPolls = new AtomicInteger();
    private final Map<Long, List<String>> readerSnapshots = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<List<String>> restoredPending =
            new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> timeline = new ConcurrentLinkedQueue<>();

    private CutRaceProbe() {}

    static CutRaceProbe of(String runId) {
        return RUNS.computeIfAbsent(runId, k -> new CutRaceProbe());
    }

    static void clear(String runId) {
        RUNS.remove(runId);
    }

    void log(String event) {
        timeline.add(
                String.format(
                        "%6d ms [%s] %s",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                        Thread.currentThread().getName(),
                        event));
    }

    // ------------------------------------------------------------------ the cut handshake

    /** Enumerator: its first snapshot is checkpoint {@code n}; S1 is still pending in it. */
    void snapshotRequested(long n) {
        cutCheckpoint.compareAndSet(-1, n);
        log("enumerator snapshotState(" + n + ") begins, S1 pending");
    }

    /** The checkpoint whose enumerator snapshot still had S1 pending, or -1. */
    long cutCheckpoint() {
        return cutCheckpoint.get();
    }

    /** Reader: true exactly once, when the cut was requested and no hold ran yet. */
    boolean startHold() {
        return cutCheckpoint.get() >= 0 && holdStarted.compareAndSet(false, true);
    }

    /** The cut was requested and the reader's hold has not started yet. */
    boolean startHoldPossible() {
        return cutCheckpoint.get() >= 0 && !holdStarted.get();
    }

    void readerHolding() {
        log("reader holds its checkpoint lock in a poll turn");
        readerHolding.countDown();
    }

    boolean awaitReaderHolding(long millis) throws InterruptedException {
        return readerHolding.await(millis, TimeUnit.MILLISECONDS);
    }

    void s1Assigned(String thread) {
        log("enumerator assigned S1 after its snapshot (on " + thread + ")");
        s1Assigned.countDown();
    }

    boolean awaitS1Assigned(long millis) throws InterruptedException {
        return s1Assigned.await(millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Reader: {@code addSplits} received S1; {@code afterBarrierN} whether snapshot N was taken.
     */
    void s1ReachedReader(boolean afterBarrierN) {
        if (!afterBarrierN) {
            s1AppliedBeforeBarrierN.set(true);
        }
        log(
                "reader addSplits(S1), its barrier N "
                        + (afterBarrierN ? "already" : "not yet")
                        + " taken");
        s1ReachedReader.countDown();
    }

    boolean awaitS1ReachedReader(long millis) throws InterruptedException {
        return s1ReachedReader.await(millis, TimeUnit.MILLISECONDS);
    }

    void holdEnded(long millis, boolean landed) {
        holdMillis.set(millis);
        landedDuringHold.set(landed);
        log("reader ends its hold after " + millis + " ms, S1 landed during hold: " + landed);
    }

    /** The S1 assignment reached the reader side while the reader held its lock. */
    boolean landedDuringHold() {
        return landedDuringHold.get();
    }

    long holdMillis() {
        return holdMillis.get();
    }

    /** The connector reader's {@code addSplits(S1)} ran before its snapshot of checkpoint N. */
    boolean s1AppliedBeforeBarrierN() {
        return s1AppliedBeforeBarrierN.get();
    }

    // ------------------------------------------------------------------ snapshots and restore

    void readerSnapshot(long checkpointId, List<String> splits) {
        readerSnapshots.put(checkpointId, Collections.unmodifiableList(new ArrayList<>(splits)));
        log("reader snapshotState(" + checkpointId + ") = " + splits);
    }

    /** The split states (split@offset) the reader checkpointed at {@code checkpointId}, or null. */
    List<String> readerSnapshot(long checkpointId) {
        return readerSnapshots.get(checkpointId);
    }

    Map<Long, List<String>> readerSnapshots() {
        return new TreeMap<>(readerSnapshots);
    }

    void enumeratorRestored(List<String> pending) {
        restoredPending.add(Collections.unmodifiableList(new ArrayList<>(pending)));
        log("enumerator restored with pending " + pending);
    }

    /** Pending splits of every restored enumerator, in restore order. */
    List<List<String>> restoredPending() {
        return new ArrayList<>(restoredPending);
    }

    // ------------------------------------------------------------------ the reader fault

    void armFault() {
        faultArmed.set(true);
        log("test armed the reader fault");
    }

    /** True exactly once after {@link #armFault}: the caller must then fail. */
    boolean fireFault() {
        return faultArmed.get() && faultFired.compareAndSet(false, true);
    }

    boolean faultFired() {
        return faultFired.get();
    }

    void exhaustedAfterFault() {
        if (exhaustedAfterFault.compareAndSet(false, true)) {
            log("restored reader read every assigned split to its end");
        }
    }

    boolean isExhaustedAfterFault() {
        return exhaustedAfterFault.get();
    }

    // ------------------------------------------------------------------ which path ran

    int readerCreated() {
        return readersCreated.incrementAndGet();
    }

    int readersCreated() {
        return readersCreated.get();
    }

    void legacyPoll() {
        legacyPolls.incrementAndGet();
    }

    void managedPoll() {
        managedPolls.incrementAndGet();
    }

    /** Calls of the stock {@code pollNext} (Lane B). */
    int legacyPolls() {
        return legacyPolls.get();
    }

    /** Calls of {@code pollNextManaged} (Lane A). */
    int managedPolls() {
        return managedPolls.get();
    }

    String timeline() {
        return String.join("\n", timeline);
    }
}
