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

package org.apache.seatunnel.engine.managed.source.transport;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The checkpoint reports of {@link CheckpointReportLane} waiting for one coordinator of one source,
 * with the batch of them in flight.
 *
 * <p>Threading: sender thread only, like the lane's groups; a {@link Report} is built by the
 * submitting thread and published to the sender thread through the lane's inbox.
 */
final class ReportGroup {
    final Key key;
    final ArrayDeque<Report> waiting = new ArrayDeque<>();
    long oldestMillis;
    Batch inFlight;
    Cancellable windowTimer;

    ReportGroup(Key key) {
        this.key = key;
    }

    /** Distinct readers among the waiting reports. */
    int distinctSubtasks() {
        BitSet seen = new BitSet();
        for (Report r : waiting) {
            seen.set(Math.max(0, r.env.targetSubtask()));
        }
        return seen.cardinality();
    }

    /** One report. Threading: mutable fields belong to the sender thread unless marked. */
    static final class Report {
        final Key key;
        final SourceCommandEnvelope env;
        final byte[] frame;
        final long deadlineMillis;
        final CompletableFuture<AdmissionAck> future;
        // Set by the submitting thread before the report is published to the inbox.
        long arrivalMillis;
        // The window timer this report armed, if it came into an empty inbox; set after publishing,
        // so a drain may miss it and leave a timer that then finds nothing to do.
        volatile Cancellable inboxTimer;
        AdmissionAck lastAck;

        Report(
                Key key,
                SourceCommandEnvelope env,
                byte[] frame,
                long deadlineMillis,
                CompletableFuture<AdmissionAck> future) {
            this.key = key;
            this.env = env;
            this.frame = frame;
            this.deadlineMillis = deadlineMillis;
            this.future = future;
        }
    }

    /** One batch in flight. Threading: sender thread only. */
    static final class Batch {
        List<Report> reports;
        final RetryState retry;
        boolean finished;

        Batch(List<Report> reports, RetryState retry) {
            this.reports = reports;
            this.retry = retry;
        }
    }

    static final class Key {
        final Object coordinator;
        final long sourceRuntimeId;

        Key(Object coordinator, long sourceRuntimeId) {
            this.coordinator = coordinator;
            this.sourceRuntimeId = sourceRuntimeId;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return sourceRuntimeId == k.sourceRuntimeId && coordinator.equals(k.coordinator);
        }

        @Override
        public int hashCode() {
            return coordinator.hashCode() * 31 + Long.hashCode(sourceRuntimeId);
        }

        @Override
        public String toString() {
            return coordinator + "/source " + sourceRuntimeId;
        }
    }
}
