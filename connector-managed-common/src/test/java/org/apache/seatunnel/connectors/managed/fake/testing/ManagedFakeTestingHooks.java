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

package org.apache.seatunnel.connectors.managed.fake.testing;

import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeEvent;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeHooks;

/**
 * The hooks of {@code ManagedFakeTesting}: timestamps for {@link ManagedFakeProbe}, receipts of
 * source events and the once-only faults of {@link ManagedFakeFaults}, as configured by {@link
 * ManagedFakeTestingOptions}. Immutable and serializable; the registries it reports to are
 * JVM-wide, so only an embedded engine in the test's JVM sees them.
 */
public final class ManagedFakeTestingHooks implements ManagedFakeHooks {
    private static final long serialVersionUID = 1L;

    private final String faultId;
    private final long failOnceAtRow;
    private final String enumeratorFailOn;
    private final long enumeratorFailAtCheckpoint;
    private final long holdSnapshotAtCheckpoint;

    public ManagedFakeTestingHooks(
            String faultId,
            long failOnceAtRow,
            String enumeratorFailOn,
            long enumeratorFailAtCheckpoint,
            long holdSnapshotAtCheckpoint) {
        if (!enumeratorFailOn.isEmpty()
                && !"snapshot".equals(enumeratorFailOn)
                && !"checkpoint-complete".equals(enumeratorFailOn)) {
            throw new IllegalArgumentException(
                    "enumerator.fail.on must be 'snapshot' or 'checkpoint-complete': "
                            + enumeratorFailOn);
        }
        this.faultId = faultId;
        this.failOnceAtRow = failOnceAtRow;
        this.enumeratorFailOn = enumeratorFailOn;
        this.enumeratorFailAtCheckpoint = enumeratorFailAtCheckpoint;
        this.holdSnapshotAtCheckpoint = holdSnapshotAtCheckpoint;
    }

    @Override
    public void beforeRow(int subtask, long rowsEmitted) {
        if (failOnceAtRow >= 0
                && rowsEmitted >= failOnceAtRow
                && !faultId.isEmpty()
                && ManagedFakeFaults.fireOnce(faultId + "/reader")) {
            throw new IllegalStateException(
                    "ManagedFake injected reader failure at row "
                            + rowsEmitted
                            + " of subtask "
                            + subtask
                            + " (fault.id "
                            + faultId
                            + ")");
        }
    }

    @Override
    public void rowEmitted(long dueNanos) {
        ManagedFakeProbe.rowEmitted(dueNanos);
    }

    @Override
    public void readerSnapshot(long checkpointId) {
        ManagedFakeProbe.readerSnapshot(checkpointId);
    }

    /** A misrouted event is recorded under {@code -1 - receiver}, so it is visible. */
    @Override
    public void sourceEventReceived(int subtask, SourceEvent event) {
        if (event instanceof ManagedFakeEvent) {
            ManagedFakeEvent e = (ManagedFakeEvent) event;
            ManagedFakeFaults.recordEvent(
                    e.runId(), e.targetSubtask() == subtask ? subtask : -1 - subtask);
        }
    }

    @Override
    public void enumeratorSnapshot(long checkpointId) throws Exception {
        ManagedFakeProbe.enumeratorSnapshot(checkpointId);
        if (faultId.isEmpty()) {
            return;
        }
        if (holdSnapshotAtCheckpoint >= 0 && checkpointId >= holdSnapshotAtCheckpoint) {
            ManagedFakeFaults.holdOnce(faultId);
        }
        failOnce("snapshot", checkpointId);
    }

    @Override
    public void enumeratorCheckpointComplete(long checkpointId) {
        ManagedFakeProbe.checkpointComplete(checkpointId);
        if (!faultId.isEmpty()) {
            failOnce("checkpoint-complete", checkpointId);
        }
    }

    private void failOnce(String callback, long checkpointId) {
        if (callback.equals(enumeratorFailOn)
                && checkpointId >= enumeratorFailAtCheckpoint
                && ManagedFakeFaults.fireOnce(faultId + "/enumerator")) {
            throw new IllegalStateException(
                    "ManagedFake injected enumerator failure in "
                            + callback
                            + " of checkpoint "
                            + checkpointId
                            + " (fault.id "
                            + faultId
                            + ")");
        }
    }
}
