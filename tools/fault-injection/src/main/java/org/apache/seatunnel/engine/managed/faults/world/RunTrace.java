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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import org.apache.seatunnel.engine.managed.source.coordinator.AssignmentEntry;

/**
 * What a {@link MiniEngine} run remembers for its failure messages: the last events of the run, why
 * each restore happened, and the {@link AssertionError} that carries them with the world's current
 * state (configuration, faults, tracker, enumerator, readers, network, sink).
 *
 * <p>Threading: confined to the run's thread.
 */
final class RunTrace {
    private static final int TRACE_LIMIT = 400;

    private final ArrayDeque<String> events = new ArrayDeque<>();
    private final List<String> restoreReasons = new ArrayList<>();

    void add(String event) {
        if (events.size() >= TRACE_LIMIT) {
            events.pollFirst();
        }
        events.addLast(event);
    }

    void restored(String why) {
        restoreReasons.add(why);
    }

    int restores() {
        return restoreReasons.size();
    }

    List<String> restoreReasons() {
        return Collections.unmodifiableList(restoreReasons);
    }

    List<String> events() {
        return new ArrayList<>(events);
    }

    /** An AssertionError carrying the run's configuration, faults, trace and current state. */
    AssertionError failure(String what, MiniEngine w) {
        StringBuilder sb = new StringBuilder(what);
        sb.append("\nconfig: ").append(w.config);
        sb.append("\nfaults: ").append(w.faults());
        sb.append("\nrestores: ").append(restoreReasons);
        sb.append("\ntrace: ").append(events);
        if (w.coordinator != null) {
            sb.append("\ntracker:");
            for (AssignmentEntry e : w.coordinator.tracker().entries()) {
                sb.append(' ').append(e);
            }
            sb.append("\nmetrics: ").append(w.coordinator.metrics());
        }
        if (w.enumerator != null) {
            sb.append("\nenumerator pending: ").append(w.enumerator.pending());
        }
        if (w.readers != null) {
            for (ReaderTask t : w.readers) {
                sb.append('\n')
                        .append(t.name())
                        .append(": owned=")
                        .append(t.reader().owned())
                        .append(" nms=")
                        .append(t.reader().noMoreSplits())
                        .append(" finished=")
                        .append(t.finished())
                        .append(" lifecycle=")
                        .append(t.loop().lifecycle())
                        .append(" queued=")
                        .append(t.mailbox().commandCount())
                        .append(" held=")
                        .append(t.loop().heldCommands())
                        .append(" terminal=")
                        .append(t.terminalSignal())
                        .append(" requests: ")
                        .append(t.describeRequests());
            }
        }
        sb.append("\nnetwork: ").append(w.network().describe());
        sb.append(" sink committed: ").append(new TreeMap<>(w.sink.committed()));
        return new AssertionError(sb.toString());
    }
}
