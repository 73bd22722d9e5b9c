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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.LongPayload;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * A deterministic reference reader following the reader contract of this package (see
 * package-info): dedup per attempt by command id, fencing by attempt, bounded mailbox, defer of
 * commands whose cut c is not yet passed (barrier >= c or abort of c), applied watermark and gaps
 * per epoch, snapshot of owned splits with positions. With {@code cutAware == false} it is the
 * naive reader of hazard 1 that applies on arrival.
 */
final class StandInReader {
    private static final TestSplit.Ser SER = new TestSplit.Ser();

    final int subtask;
    final long attemptId;
    final boolean cutAware;
    final int mailboxCapacity;

    final List<SourceCommandEnvelope> mailbox = new ArrayList<>();
    final List<String> mailboxSplitIds = new ArrayList<>();
    final Set<Long> seen = new HashSet<>();
    final LinkedHashMap<String, TestSplit> owned = new LinkedHashMap<>();
    final Map<Long, Long> watermarks = new HashMap<>();
    final Map<Long, TreeSet<Long>> gaps = new HashMap<>();
    final Set<Long> releasedCuts = new HashSet<>();
    final List<Long> appliedAssignments = new ArrayList<>();
    final List<String> violations = new ArrayList<>();
    long lastBarrier;
    boolean noMoreSplits;
    boolean requestOutstanding;

    StandInReader(int subtask, long attemptId, boolean cutAware, int mailboxCapacity) {
        this.subtask = subtask;
        this.attemptId = attemptId;
        this.cutAware = cutAware;
        this.mailboxCapacity = mailboxCapacity;
    }

    /** A new attempt restored from its own snapshot (reader failover). */
    static StandInReader restore(
            int subtask, long attemptId, boolean cutAware, int cap, Snapshot s) {
        StandInReader r = new StandInReader(subtask, attemptId, cutAware, cap);
        for (TestSplit t : s.splits) {
            r.owned.put(t.id, t);
        }
        r.watermarks.putAll(s.watermarks);
        for (Map.Entry<Long, TreeSet<Long>> g : s.gaps.entrySet()) {
            r.gaps.put(g.getKey(), new TreeSet<>(g.getValue()));
        }
        r.lastBarrier = s.checkpointId;
        return r;
    }

    AdmissionAck offer(SourceCommandEnvelope e) {
        if (e.targetAttemptId() != attemptId || e.targetSubtask() != subtask) {
            return AdmissionAck.rejected(
                    AdmissionStatus.STALE_TARGET, attemptId, ReasonCode.STALE_ATTEMPT);
        }
        if (seen.contains(e.commandId())) {
            return new AdmissionAck(
                    AdmissionStatus.DUPLICATE, attemptId, -1, 0, ReasonCode.ALREADY_ADMITTED);
        }
        if (mailbox.size() >= mailboxCapacity) {
            return AdmissionAck.retryLater(attemptId, 5, ReasonCode.MAILBOX_COUNT_FULL);
        }
        seen.add(e.commandId());
        mailbox.add(e);
        mailboxSplitIds.add(e.commandKind() == CommandKind.SPLIT_ASSIGNMENT ? decode(e).id : null);
        if (!cutAware) {
            applyReady();
        }
        return AdmissionAck.accepted(attemptId, seen.size());
    }

    private boolean applicable(SourceCommandEnvelope e) {
        long cut = e.coordinatorCutId();
        return !cutAware || cut == 0 || cut <= lastBarrier || releasedCuts.contains(cut);
    }

    /** Applies every admitted command that may be applied now, in admission order. */
    void applyReady() {
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int i = 0; i < mailbox.size(); i++) {
                SourceCommandEnvelope e = mailbox.get(i);
                if (applicable(e)) {
                    mailbox.remove(i);
                    mailboxSplitIds.remove(i);
                    apply(e);
                    progress = true; // a release may unblock earlier deferred commands
                    break;
                }
            }
        }
    }

    private void apply(SourceCommandEnvelope e) {
        switch (e.commandKind()) {
            case SPLIT_ASSIGNMENT:
                TestSplit s = decode(e);
                if (owned.containsKey(s.id)) {
                    violations.add("split applied twice in one attempt");
                } else {
                    owned.put(s.id, s);
                }
                appliedAssignments.add(e.commandId());
                requestOutstanding = false;
                break;
            case NO_MORE_SPLITS:
                noMoreSplits = true;
                requestOutstanding = false;
                break;
            case CHECKPOINT_ABORTED:
                releasedCuts.add(LongPayload.decode(e));
                break;
            default:
                break;
        }
        recordSequence(e.coordinatorEpoch(), e.senderSequence());
    }

    private void recordSequence(long epoch, long seq) {
        if (seq <= 0) {
            return;
        }
        long w = watermarks.getOrDefault(epoch, 0L);
        TreeSet<Long> g = gaps.computeIfAbsent(epoch, k -> new TreeSet<>());
        if (seq > w) {
            for (long k = w + 1; k < seq; k++) {
                g.add(k);
            }
            watermarks.put(epoch, seq);
        } else {
            g.remove(seq);
        }
    }

    /** One poll turn: applies ready commands, emits at most one record ("id#offset"). */
    String poll() {
        applyReady();
        Iterator<TestSplit> it = owned.values().iterator();
        if (!it.hasNext()) {
            return null;
        }
        TestSplit s = it.next();
        String record = s.id + "#" + s.position;
        TestSplit next = s.advanced();
        if (next.position >= next.length) {
            owned.remove(s.id);
        } else {
            owned.put(s.id, next);
        }
        return record;
    }

    /** Barrier N: commands applicable before it are applied; then the snapshot; then N passed. */
    Snapshot barrier(long checkpointId) {
        applyReady();
        Snapshot s = new Snapshot(checkpointId, new ArrayList<>(owned.values()), watermarks, gaps);
        lastBarrier = Math.max(lastBarrier, checkpointId);
        applyReady();
        return s;
    }

    boolean holds(String splitId) {
        return owned.containsKey(splitId) || mailboxSplitIds.contains(splitId);
    }

    boolean finished() {
        return noMoreSplits && owned.isEmpty() && mailbox.isEmpty();
    }

    List<Long> takeAppliedAssignments() {
        List<Long> l = new ArrayList<>(appliedAssignments);
        appliedAssignments.clear();
        return l;
    }

    private static TestSplit decode(SourceCommandEnvelope e) {
        try {
            return SER.deserialize(e.copyPayload());
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The reader's checkpointed state: owned splits with positions and runtime metadata. */
    static final class Snapshot {
        final long checkpointId;
        final List<TestSplit> splits;
        final Map<Long, Long> watermarks;
        final Map<Long, TreeSet<Long>> gaps = new HashMap<>();

        Snapshot(
                long checkpointId,
                List<TestSplit> splits,
                Map<Long, Long> watermarks,
                Map<Long, TreeSet<Long>> gaps) {
            this.checkpointId = checkpointId;
            this.splits = splits;
            this.watermarks = new HashMap<>(watermarks);
            for (Map.Entry<Long, TreeSet<Long>> g : gaps.entrySet()) {
                this.gaps.put(g.getKey(), new TreeSet<>(g.getValue()));
            }
        }

        /** The metadata as a report of {@code kind} for {@code subtask}/{@code attempt}. */
        ReaderInclusionReport report(ReaderInclusionReport.Kind kind, int subtask, long attempt) {
            ReaderInclusionReport.Builder b =
                    ReaderInclusionReport.builder(kind, subtask, attempt, checkpointId);
            for (Map.Entry<Long, Long> w : watermarks.entrySet()) {
                TreeSet<Long> g = gaps.getOrDefault(w.getKey(), new TreeSet<>());
                long[] arr = new long[g.size()];
                int i = 0;
                for (long v : g) {
                    arr[i++] = v;
                }
                b.watermark(w.getKey(), w.getValue(), arr);
            }
            return b.build();
        }
    }
}
