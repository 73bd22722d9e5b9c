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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * What one run of {@link RestoreProbeSource} saw, keyed by run id (the engine ships the source to
 * every member, so a JVM-static registry is the only channel between the connector and the test):
 * every enumerator created (fresh or restored, with its restored state), every split handed back to
 * it, the splits each reader attempt received, the first attempt's snapshots and completed
 * checkpoints, and where the once-only fault fired together with the engine's latest completed
 * checkpoint at that moment.
 *
 * <p>Threading: written from engine threads (task threads, pool threads, operation threads, the
 * coordinator loop) and read by the test thread; every field is an atomic, a volatile or a
 * concurrent collection, so no lock is needed.
 */
final class RestoreProbe {

    private static final Map<String, RestoreProbe> RUNS = new ConcurrentHashMap<>();

    private final AtomicInteger readerAttempts = new AtomicInteger();
    private final Map<Integer, List<String>> received = new ConcurrentHashMap<>();
    private final Map<Long, List<String>> firstAttemptSnapshots = new ConcurrentHashMap<>();
    private final List<Long> firstAttemptCompleted = new CopyOnWriteArrayList<>();
    private final List<String> enumerators = new CopyOnWriteArrayList<>();
    private final List<String> handedBack = new CopyOnWriteArrayList<>();
    private final AtomicBoolean fired = new AtomicBoolean();
    private final ConcurrentLinkedQueue<String> timeline = new ConcurrentLinkedQueue<>();
    private final long startNanos = System.nanoTime();
    private final Map<Integer, Long> readerCreatedNanos = new ConcurrentHashMap<>();
    private volatile long firedNanos;
    private volatile String firedWhere;
    private volatile long completedAtFault = Long.MIN_VALUE;
    private volatile LongSupplier engineLatestCompleted = () -> Long.MIN_VALUE;

    private RestoreProbe() {}

    static RestoreProbe of(String runId) {
        return RUNS.computeIfAbsent(runId, k -> new RestoreProbe());
    }

    static void clear(String runId) {
        RUNS.remove(runId);
    }

    /**
     * How the fault reads the engine's latest completed checkpoint of the job (set by the test).
     */
    void engineView(LongSupplier latestCompleted) {
        this.engineLatestCompleted = latestCompleted;
    }

    // ---------------------------------------------------------------- connector side

    /** A reader was created; returns its attempt number, 0 for the first. */
    int readerCreated() {
        int n = readerAttempts.getAndIncrement();
        received.put(n, new CopyOnWriteArrayList<>());
        readerCreatedNanos.put(n, System.nanoTime());
        log("reader attempt " + n + " created");
        return n;
    }

    void splitsReceived(int attempt, List<String> splits) {
        received.get(attempt).addAll(splits);
        log("reader attempt " + attempt + " addSplits " + splits);
    }

    void snapshot(int attempt, long checkpointId, List<String> state) {
        if (attempt == 0) {
            firstAttemptSnapshots.put(checkpointId, Collections.unmodifiableList(state));
        }
        log("reader attempt " + attempt + " snapshotState(" + checkpointId + ") = " + state);
    }

    void checkpointComplete(int attempt, long checkpointId) {
        if (attempt == 0) {
            firstAttemptCompleted.add(checkpointId);
        }
        log("reader attempt " + attempt + " notifyCheckpointComplete(" + checkpointId + ")");
    }

    /** True once per run: the caller throws. Records the engine's latest completed checkpoint. */
    boolean fire(String where) {
        if (!fired.compareAndSet(false, true)) {
            return false;
        }
        firedNanos = System.nanoTime();
        completedAtFault = engineLatestCompleted.getAsLong();
        firedWhere = where;
        log(
                "reader fails in "
                        + where
                        + " (engine's latest completed checkpoint "
                        + completedAtFault
                        + ")");
        return true;
    }

    void enumeratorCreated(List<String> restoredState) {
        enumerators.add(restoredState == null ? "fresh" : "restored " + restoredState);
        log("enumerator " + (restoredState == null ? "fresh" : "restored with " + restoredState));
    }

    void splitsHandedBack(List<String> splits) {
        handedBack.addAll(splits);
        log("enumerator addSplitsBack " + splits);
    }

    void log(String what) {
        timeline.add(
                String.format(
                        "%6d ms [%s] %s",
                        (System.nanoTime() - startNanos) / 1_000_000,
                        Thread.currentThread().getName(),
                        what));
    }

    // ---------------------------------------------------------------- test side

    boolean faultFired() {
        return fired.get();
    }

    String firedWhere() {
        return firedWhere;
    }

    /** The engine's latest completed checkpoint when the fault fired; -1 for none. */
    long completedAtFault() {
        return completedAtFault;
    }

    /** Milliseconds from the fault to the creation of the restored reader; -1 if none yet. */
    long millisFromFaultToRestoredReader() {
        Long created = readerCreatedNanos.get(1);
        return created == null || !fired.get() ? -1 : (created - firedNanos) / 1_000_000;
    }

    int readerAttempts() {
        return readerAttempts.get();
    }

    /** The splits (id@offset) reader attempt {@code attempt} received, in order. */
    List<String> received(int attempt) {
        List<String> r = received.get(attempt);
        return r == null ? Collections.emptyList() : new ArrayList<>(r);
    }

    /**
     * The splits the reader that resumed after the fault received: the latest attempt after the
     * first that received any. Usually attempt 1; a later one when the engine restored the pipeline
     * more than once for the one fault.
     */
    List<String> resumedReceived() {
        for (int n = readerAttempts.get() - 1; n >= 1; n--) {
            List<String> r = received(n);
            if (!r.isEmpty()) {
                return r;
            }
        }
        return Collections.emptyList();
    }

    /** The first reader attempt's state in checkpoint {@code id}, or null if it took none. */
    List<String> firstAttemptSnapshot(long id) {
        return firstAttemptSnapshots.get(id);
    }

    Map<Long, List<String>> firstAttemptSnapshots() {
        return new TreeMap<>(firstAttemptSnapshots);
    }

    List<Long> firstAttemptCompleted() {
        return new ArrayList<>(firstAttemptCompleted);
    }

    /** "fresh" or "restored [..]" per enumerator created, in order. */
    List<String> enumerators() {
        return new ArrayList<>(enumerators);
    }

    List<String> handedBack() {
        return new ArrayList<>(handedBack);
    }

    String timeline() {
        return String.join("\n", timeline);
    }
}
