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

package org.apache.seatunnel.engine.managed.faults.world;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.coordinator.AssignmentEntry;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAssignmentTracker;

/**
 * The checks a {@link MiniEngine} run is held to: every bound after every step, the ownership of
 * every unfinished split (exactly one of enumerator, readers, or in transit, positioned where its
 * rows stop), and exactly-once rows at the end.
 *
 * <p>Threading: the model runs on one thread; so do its checks.
 */
final class WorldChecks {
    private final MiniEngine w;

    WorldChecks(MiniEngine w) {
        this.w = w;
    }

    void checkBounds() {
        SourceAssignmentTracker tracker = w.coordinator.tracker();
        if (tracker.inFlightCount() > w.config.maxTrackerEntries()) {
            throw w.fail("tracker above its bound: " + tracker.inFlightCount());
        }
        int maxQueued =
                w.config.mailboxLimits().maxCommands()
                        + w.config.mailboxLimits().reservedCommands();
        for (ReaderTask t : w.readers) {
            if (t.mailbox().commandCount() > maxQueued) {
                throw w.fail(t.name() + " mailbox above its bound: " + t.mailbox().commandCount());
            }
            if (t.loop().heldCommands() > maxQueued) {
                throw w.fail(t.name() + " holds " + t.loop().heldCommands() + " commands");
            }
            if (w.config.splitWindow() > 0 && t.reader().owned().size() > w.config.splitWindow()) {
                throw w.fail(
                        t.name()
                                + " holds "
                                + t.reader().owned().size()
                                + " unread splits, more than its split window "
                                + w.config.splitWindow());
            }
        }
    }

    /**
     * Every split is finished (all its rows in the lineage) or has exactly one owner positioned
     * where its rows in the lineage stop; no row is in the lineage twice and none is skipped.
     */
    void checkOwnership(String when) {
        Map<String, int[]> rows = new HashMap<>();
        for (RowSplit s : w.allSplits) {
            rows.put(s.splitId(), new int[s.length()]);
        }
        for (String row : w.sink.lineage()) {
            int hash = row.lastIndexOf('#');
            int[] r = rows.get(row.substring(0, hash));
            if (r == null) {
                throw w.fail("unknown row " + row + " (" + when + ")");
            }
            r[Integer.parseInt(row.substring(hash + 1))]++;
        }
        Map<String, List<String>> owners = new HashMap<>();
        for (RowSplit s : w.allSplits) {
            owners.put(s.splitId(), new ArrayList<>());
        }
        for (RowSplit p : w.enumerator.pending()) {
            owners.get(p.splitId()).add("enumerator@" + p.position());
        }
        for (AssignmentEntry e : w.coordinator.tracker().entries()) {
            ReaderTask t =
                    e.targetSubtask() < w.readers.length ? w.readers[e.targetSubtask()] : null;
            if (t != null && t.attemptId() == e.attemptId() && t.admittedOrApplied(e.splitId())) {
                continue; // its reader attempt admitted it: counted there
            }
            RowSplit handed = w.enumerator.handedOut(e.splitId());
            if (handed == null) {
                throw w.fail(
                        "tracker entry "
                                + e
                                + " belongs to no current reader attempt and was not handed out"
                                + " in epoch "
                                + w.epoch
                                + " ("
                                + when
                                + ")");
            }
            owners.get(e.splitId()).add("in transit " + e.state() + "@" + handed.position());
        }
        for (ReaderTask t : w.readers) {
            for (RowSplit s : t.reader().owned()) {
                owners.get(s.splitId()).add(t.name() + "@" + s.position());
            }
            for (RowSplit s : t.admittedNotApplied()) {
                owners.get(s.splitId()).add(t.name() + " mailbox@" + s.position());
            }
            if (!t.reader().violations().isEmpty()) {
                throw w.fail(t.name() + ": " + t.reader().violations() + " (" + when + ")");
            }
        }
        for (RowSplit s : w.allSplits) {
            int[] r = rows.get(s.splitId());
            int emitted = 0;
            for (int k = 0; k < r.length; k++) {
                if (r[k] > 1) {
                    throw w.fail(
                            "row "
                                    + s.splitId()
                                    + "#"
                                    + k
                                    + " read "
                                    + r[k]
                                    + " times ("
                                    + when
                                    + ")");
                }
                if (r[k] == 1) {
                    if (k != emitted) {
                        throw w.fail(
                                "split "
                                        + s.splitId()
                                        + " skipped row "
                                        + emitted
                                        + " ("
                                        + when
                                        + ")");
                    }
                    emitted++;
                }
            }
            List<String> o = owners.get(s.splitId());
            if (emitted == s.length()) {
                if (!o.isEmpty()) {
                    throw w.fail(
                            "finished split "
                                    + s.splitId()
                                    + " still owned by "
                                    + o
                                    + " ("
                                    + when
                                    + ")");
                }
            } else if (o.size() != 1) {
                throw w.fail(
                        "split "
                                + s.splitId()
                                + " has "
                                + o.size()
                                + " owners "
                                + o
                                + " ("
                                + when
                                + ")");
            } else if (!o.get(0).endsWith("@" + emitted)) {
                throw w.fail(
                        "split "
                                + s.splitId()
                                + " resumes at "
                                + o
                                + " but its lineage has "
                                + emitted
                                + " rows ("
                                + when
                                + ")");
            }
        }
    }

    /** Every row of every split committed exactly once, nothing else committed. */
    void checkExactlyOnce() {
        Map<String, Integer> committed = w.sink.committed();
        int expected = 0;
        for (RowSplit s : w.allSplits) {
            for (int k = 0; k < s.length(); k++) {
                Integer n = committed.get(s.splitId() + "#" + k);
                if (n == null || n != 1) {
                    throw w.fail("row " + s.splitId() + "#" + k + " committed " + n + " times");
                }
                expected++;
            }
        }
        if (committed.size() != expected) {
            throw w.fail("the sink committed rows of no split: " + committed.keySet());
        }
    }

    boolean jobFinished() {
        if (!w.enumerator.pending().isEmpty() || !w.sink.settled() || w.checkpoints.inFlight()) {
            return false;
        }
        for (ReaderTask t : w.readers) {
            if (!t.finished()) {
                return false;
            }
        }
        return w.coordinator.tracker().size() == 0;
    }
}
