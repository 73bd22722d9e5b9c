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
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A two-phase-commit sink with checkpoint-aligned commits: rows a reader emits wait in that
 * subtask's open transaction; the barrier of checkpoint N pre-commits it; a completed checkpoint
 * commits every pre-commit at or below its id (an aborted checkpoint's pre-commit rides with the
 * next completed one). A failure discards everything not committed. With checkpoints disabled rows
 * commit as they arrive and a restart truncates the table, i.e. the job reruns from scratch.
 *
 * <p>Threading: confined to the run's thread.
 */
public final class CommittingSink {
    private final boolean checkpointsEnabled;
    private final Map<String, Integer> committed = new HashMap<>();
    private final Map<Integer, List<String>> open = new TreeMap<>();
    private final List<PreCommit> preCommits = new ArrayList<>();

    public CommittingSink(boolean checkpointsEnabled) {
        this.checkpointsEnabled = checkpointsEnabled;
    }

    public void write(int subtask, String row) {
        if (!checkpointsEnabled) {
            committed.merge(row, 1, Integer::sum);
            return;
        }
        List<String> l = open.get(subtask);
        if (l == null) {
            l = new ArrayList<>();
            open.put(subtask, l);
        }
        l.add(row);
    }

    /** The barrier of {@code checkpointId} reached this sink from {@code subtask}. */
    public void barrier(int subtask, long checkpointId) {
        List<String> rows = open.remove(subtask);
        preCommits.add(
                new PreCommit(checkpointId, rows == null ? Collections.<String>emptyList() : rows));
    }

    /** Checkpoint {@code checkpointId} completed globally. */
    public void commitUpTo(long checkpointId) {
        for (Iterator<PreCommit> it = preCommits.iterator(); it.hasNext(); ) {
            PreCommit p = it.next();
            if (p.checkpointId <= checkpointId) {
                for (String r : p.rows) {
                    committed.merge(r, 1, Integer::sum);
                }
                it.remove();
            }
        }
    }

    /** The job failed: open and pre-committed rows are gone. */
    public void discardUncommitted() {
        open.clear();
        preCommits.clear();
        if (!checkpointsEnabled) {
            committed.clear();
        }
    }

    /** How often each row was committed. */
    public Map<String, Integer> committed() {
        return Collections.unmodifiableMap(committed);
    }

    /** Every row of the current lineage: committed, pre-committed and open. */
    public List<String> lineage() {
        List<String> all = new ArrayList<>();
        for (Map.Entry<String, Integer> e : committed.entrySet()) {
            for (int i = 0; i < e.getValue(); i++) {
                all.add(e.getKey());
            }
        }
        for (PreCommit p : preCommits) {
            all.addAll(p.rows);
        }
        for (List<String> l : open.values()) {
            all.addAll(l);
        }
        return all;
    }

    /** True when nothing waits for a commit. */
    public boolean settled() {
        if (!preCommits.isEmpty()) {
            return false;
        }
        for (List<String> l : open.values()) {
            if (!l.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static final class PreCommit {
        final long checkpointId;
        final List<String> rows;

        PreCommit(long checkpointId, List<String> rows) {
            this.checkpointId = checkpointId;
            this.rows = rows;
        }
    }
}
