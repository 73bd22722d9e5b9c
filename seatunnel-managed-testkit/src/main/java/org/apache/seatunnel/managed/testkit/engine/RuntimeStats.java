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

package org.apache.seatunnel.managed.testkit.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedRuntimeObserver;

/**
 * JVM-wide totals of what the Lane A hosts of embedded engines did, for tests and the demo's
 * summary: live readers are read through their counters, closed ones are folded into totals so
 * nothing disappears when a job ends. Fed by {@link Observer}, which the runtime finds through this
 * module's {@code META-INF/services} entry; the shipped runtime keeps no such totals.
 *
 * <p>Threading: any thread. One set of totals per JVM: {@link #reset()} between test classes, and
 * never run two Lane A test classes at once in one JVM.
 */
public final class RuntimeStats {
    private static final Map<ReaderMailbox, ReaderLoopMetrics> LIVE = new ConcurrentHashMap<>();
    private static final AtomicLong[] CLOSED = newCounters();
    private static final AtomicLong[] ADMISSIONS_CLOSED = newAdmissions();
    private static final ConcurrentLinkedQueue<Long> BARRIER_NANOS = new ConcurrentLinkedQueue<>();
    // The sample's bound: a ConcurrentLinkedQueue's size() walks the whole queue.
    private static final AtomicLong BARRIER_SAMPLES = new AtomicLong();
    private static final AtomicLong READERS_OPENED = new AtomicLong();
    private static final AtomicLong RESTORES_REFUSED = new AtomicLong();
    private static volatile String lastRestoreRefusal = "";

    /** Indexes into a counter array. */
    public enum Counter {
        RECORDS,
        POLL_TURNS,
        COMMANDS_APPLIED,
        DUPLICATES_SKIPPED,
        CUT_DEFERRALS,
        CHECKPOINTS,
        SOFT_OVERRUNS,
        HARD_WAKEUPS,
        BYTES,
        UNSIZED_RECORDS,
        AVAILABILITY_NOT_SIGNALLED,
        RECORD_BUDGET_OVERRUNS,
        BARRIER_HANDOFFS,
        BARRIER_HANDOFF_TIMEOUTS,
        BARRIER_COHORT_WAITS,
        BARRIER_COHORT_TIMEOUTS,
        OUTPUT_BLOCKED_NANOS,
        POLLS_LINGERED,
        CHECKPOINT_REPORTS_UNCHANGED,
        OFF_LOOP_STATE_CHECKS,
        OFF_LOOP_STATE_CHANGES
    }

    private static final List<Long> COORDINATOR_EPOCHS = new CopyOnWriteArrayList<>();

    private RuntimeStats() {}

    private static AtomicLong[] newCounters() {
        AtomicLong[] a = new AtomicLong[Counter.values().length];
        for (int i = 0; i < a.length; i++) {
            a[i] = new AtomicLong();
        }
        return a;
    }

    private static AtomicLong[] newAdmissions() {
        AtomicLong[] a = new AtomicLong[AdmissionStatus.values().length];
        for (int i = 0; i < a.length; i++) {
            a[i] = new AtomicLong();
        }
        return a;
    }

    /** The runtime's hook into these totals; registered as a service, not for direct use. */
    public static final class Observer implements ManagedRuntimeObserver {
        @Override
        public void readerOpened(ReaderMailbox mailbox, ReaderLoopMetrics metrics) {
            RuntimeStats.readerOpened(mailbox, metrics);
        }

        @Override
        public void barrierTaken(long waitNanos) {
            RuntimeStats.barrierWait(waitNanos);
        }

        @Override
        public void readerClosed(ReaderMailbox mailbox, ReaderLoopMetrics metrics) {
            RuntimeStats.readerClosed(mailbox, metrics);
        }

        @Override
        public void restoreRefused(String reason) {
            RuntimeStats.restoreRefused(reason);
        }

        @Override
        public void coordinatorOpened(
                long jobId, long sourceRuntimeId, long epoch, boolean restored) {
            COORDINATOR_EPOCHS.add(epoch);
        }
    }

    /** The epochs Lane A coordinators opened in, in the order they opened. */
    public static List<Long> coordinatorEpochs() {
        return new ArrayList<>(COORDINATOR_EPOCHS);
    }

    static void readerOpened(ReaderMailbox mailbox, ReaderLoopMetrics metrics) {
        LIVE.put(mailbox, metrics);
        READERS_OPENED.incrementAndGet();
    }

    static void readerClosed(ReaderMailbox mailbox, ReaderLoopMetrics metrics) {
        if (LIVE.remove(mailbox) == null) {
            return;
        }
        long[] v = values(metrics);
        for (int i = 0; i < v.length; i++) {
            CLOSED[i].addAndGet(v[i]);
        }
        for (AdmissionStatus s : AdmissionStatus.values()) {
            ADMISSIONS_CLOSED[s.ordinal()].addAndGet(mailbox.metrics().admissions(s));
        }
    }

    /** Barrier wait: engine demanded the snapshot → the loop took it. Bounded sample. */
    static void barrierWait(long nanos) {
        if (BARRIER_SAMPLES.get() < 100_000 && BARRIER_SAMPLES.incrementAndGet() <= 100_000) {
            BARRIER_NANOS.add(nanos);
        }
    }

    private static long[] values(ReaderLoopMetrics m) {
        return new long[] {
            m.records(),
            m.pollTurns(),
            m.commandsApplied(),
            m.duplicatesSkipped(),
            m.cutDeferrals(),
            m.checkpoints(),
            m.softOverruns(),
            m.hardWakeups(),
            m.bytes(),
            m.unsizedRecords(),
            m.availabilityNotSignalled(),
            m.recordBudgetOverruns(),
            m.backpressure().barrierHandoffs(),
            m.backpressure().barrierHandoffTimeouts(),
            m.backpressure().barrierCohortWaits(),
            m.backpressure().barrierCohortTimeouts(),
            m.backpressure().outputBlockedNanos(),
            m.pollsLingered(),
            m.reportsUnchanged(),
            m.offLoopStateChecks(),
            m.offLoopStateChanges()
        };
    }

    public static long total(Counter c) {
        long sum = CLOSED[c.ordinal()].get();
        for (ReaderLoopMetrics m : LIVE.values()) {
            sum += values(m)[c.ordinal()];
        }
        return sum;
    }

    /** Payload bytes queued now in the fullest live reader mailbox (0 when none is open). */
    public static long largestMailboxBytes() {
        long max = 0;
        for (ReaderMailbox mb : LIVE.keySet()) {
            max = Math.max(max, mb.payloadBytes());
        }
        return max;
    }

    public static Map<AdmissionStatus, Long> admissions() {
        Map<AdmissionStatus, Long> out = new EnumMap<>(AdmissionStatus.class);
        for (AdmissionStatus s : AdmissionStatus.values()) {
            long sum = ADMISSIONS_CLOSED[s.ordinal()].get();
            for (ReaderMailbox mb : LIVE.keySet()) {
                sum += mb.metrics().admissions(s);
            }
            out.put(s, sum);
        }
        return out;
    }

    /**
     * Records a restore refused for a lane or capability mismatch. The engine may surface another
     * error of the failing job first (its own cleanup can race), so a test reads the refusal here.
     */
    static void restoreRefused(String reason) {
        RESTORES_REFUSED.incrementAndGet();
        lastRestoreRefusal = reason;
    }

    /** Restores refused since the last {@link #reset()}. */
    public static long restoresRefused() {
        return RESTORES_REFUSED.get();
    }

    /** The operator-readable reason of the last refused restore, or empty. */
    public static String lastRestoreRefusal() {
        return lastRestoreRefusal;
    }

    public static long readersOpened() {
        return READERS_OPENED.get();
    }

    /** Lane A readers opened and not yet closed. */
    public static int readersLive() {
        return LIVE.size();
    }

    /** Barrier waits in nanoseconds, sorted. */
    public static long[] barrierWaitsSorted() {
        long[] a = BARRIER_NANOS.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a;
    }

    /** Clears the barrier-wait samples only (a benchmark's measured window). */
    public static void clearBarrierWaits() {
        BARRIER_NANOS.clear();
        BARRIER_SAMPLES.set(0);
    }

    /** Clears everything (between demo runs and test classes). */
    public static void reset() {
        LIVE.clear();
        for (AtomicLong a : CLOSED) {
            a.set(0);
        }
        for (AtomicLong a : ADMISSIONS_CLOSED) {
            a.set(0);
        }
        BARRIER_NANOS.clear();
        BARRIER_SAMPLES.set(0);
        READERS_OPENED.set(0);
        RESTORES_REFUSED.set(0);
        lastRestoreRefusal = "";
        COORDINATOR_EPOCHS.clear();
    }
}
