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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.io.Serializable;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.lane.LaneDecision;
import org.apache.seatunnel.engine.managed.source.reader.OutboundRequests;

/**
 * Lane A for one managed connector: the engine sees this source, whose reader is a {@link
 * ManagedReaderHost} and whose enumerator is a {@link ManagedEnumeratorHost}. The lane decision,
 * the settings it was planned with and a random runtime id (the key both hosts register under on
 * their members) travel with it inside the job plan.
 *
 * <p>Threading: immutable after planning; the engine calls it from its task threads.
 */
final class ManagedLaneSource<T, SplitT extends SourceSplit, StateT extends Serializable>
        extends LaneSource<T, ManagedSplit, ManagedEnumeratorState, SplitT, StateT> {
    private static final long serialVersionUID = 1L;

    private final ManagedSourceConfig config;
    private final long sourceRuntimeId;
    private final String jobName;
    private final boolean checkpointsEnabled;
    private final long checkpointIntervalMillis;

    ManagedLaneSource(
            SeaTunnelSource<T, SplitT, StateT> inner,
            LaneDecision decision,
            ManagedSourceConfig config,
            String jobName,
            boolean checkpointsEnabled,
            long checkpointIntervalMillis) {
        super(inner, decision);
        this.checkpointsEnabled = checkpointsEnabled;
        this.checkpointIntervalMillis = Math.max(0, checkpointIntervalMillis);
        this.config = config;
        this.sourceRuntimeId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        this.jobName = jobName == null ? "" : jobName;
    }

    /** The job name the lane was chosen for ({@code job-name}), for operators' log searches. */
    String jobName() {
        return jobName;
    }

    /**
     * Whether the job takes periodic checkpoints (decided at planning from its plan): without them
     * the coordinator's tracker collects an assignment once applied.
     */
    boolean checkpointsEnabled() {
        return checkpointsEnabled;
    }

    /**
     * The job's checkpoint interval as its plan states it (0 if it takes no periodic checkpoints or
     * the plan could not be read): when the next checkpoint is due, readers step aside for it.
     */
    long checkpointIntervalMillis() {
        return checkpointIntervalMillis;
    }

    ManagedSourceConfig config() {
        return config;
    }

    long sourceRuntimeId() {
        return sourceRuntimeId;
    }

    Serializer<SourceEvent> eventSerializer() {
        return inner instanceof SupportManagedSource
                ? ((SupportManagedSource) inner).managedSourceEventSerializer()
                : null;
    }

    @Override
    public SourceReader<T, ManagedSplit> createReader(SourceReader.Context readerContext)
            throws Exception {
        // The connector's reader asks its coordinator through the attempt's own requests, never
        // through the engine's context, whose calls block the asking thread on a remote call.
        OutboundRequests requests = new OutboundRequests(config.maxOutstandingRequests());
        SourceReader<T, SplitT> reader =
                inner.createReader(
                        new ManagedReaderContext(readerContext, requests, eventSerializer()));
        if (!(reader instanceof ManagedSourceReader)) {
            throw new IllegalStateException(
                    "Lane A was planned for "
                            + inner.getPluginName()
                            + " but its reader "
                            + reader.getClass().getName()
                            + " is not a ManagedSourceReader");
        }
        return new ManagedReaderHost<>(
                (ManagedSourceReader<T, SplitT>) reader, readerContext, this, requests);
    }

    @Override
    public Serializer<ManagedSplit> getSplitSerializer() {
        return new ManagedSplitSerializer();
    }

    @Override
    public SourceSplitEnumerator<ManagedSplit, ManagedEnumeratorState> createEnumerator(
            SourceSplitEnumerator.Context<ManagedSplit> enumeratorContext) {
        return new ManagedEnumeratorHost<>(this, enumeratorContext, null);
    }

    @Override
    public SourceSplitEnumerator<ManagedSplit, ManagedEnumeratorState> restoreEnumerator(
            SourceSplitEnumerator.Context<ManagedSplit> enumeratorContext,
            ManagedEnumeratorState checkpointState) {
        verifyRestore(
                jobId(), decision(), checkpointState.lane(), checkpointState.capabilityDigest());
        return new ManagedEnumeratorHost<>(this, enumeratorContext, checkpointState);
    }

    /** The lane/digest check of every restore path, counted when it refuses. */
    static void verifyRestore(
            long jobId,
            LaneDecision decision,
            org.apache.seatunnel.engine.managed.source.lane.Lane recordedLane,
            String recordedDigest) {
        try {
            decision.verifyRestore(recordedLane, recordedDigest);
        } catch (IllegalStateException e) {
            throw RestoreRefusals.refuse(jobId, e);
        }
    }

    @Override
    public Serializer<ManagedEnumeratorState> getEnumeratorStateSerializer() {
        return new ManagedEnumeratorStateSerializer(jobId());
    }
}
