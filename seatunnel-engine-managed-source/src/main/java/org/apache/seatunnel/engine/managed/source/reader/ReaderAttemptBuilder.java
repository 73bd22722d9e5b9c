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

package org.apache.seatunnel.engine.managed.source.reader;

import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;

/**
 * Builder of one {@link ReaderAttempt}. Required: ids, limits, clock, reader, serializer, budgets,
 * record sizer, capability digest and uplink.
 *
 * <p>Threading: not thread-safe; one thread builds.
 */
public final class ReaderAttemptBuilder<T, SplitT extends SourceSplit> {
    long jobId;
    long sourceRuntimeId;
    int subtask;
    long attemptId;
    MailboxLimits mailboxLimits;
    WorkerMailboxBudget workerBudget;
    NanoClock clock;
    LoopSignal signal;
    ReaderLoopMetrics loopMetrics;
    ReaderIdentity identity;
    ManagedSourceReader<T, SplitT> reader;
    Collector<T> output;
    PollBudget pollBudget;
    ToLongFunction<T> recordSizer;
    Serializer<SplitT> splitSerializer;
    Serializer<SourceEvent> eventSerializer;
    String capabilityDigest;
    ReaderUplink uplink;
    UnaryOperator<ReaderLoopHost<SplitT>> hostDecorator;
    ReaderAttempt.SchemaChangeListener schemaChangeListener;
    int splitWindow;
    int offLoopCheckInterval;

    ReaderAttemptBuilder() {}

    /** Job, source runtime, subtask and attempt ids: what every envelope is addressed by. */
    public ReaderAttemptBuilder<T, SplitT> ids(
            long jobId, long sourceRuntimeId, int subtask, long attemptId) {
        this.jobId = jobId;
        this.sourceRuntimeId = sourceRuntimeId;
        this.subtask = subtask;
        this.attemptId = attemptId;
        return this;
    }

    public ReaderAttemptBuilder<T, SplitT> mailboxLimits(MailboxLimits v) {
        this.mailboxLimits = v;
        return this;
    }

    /** The member-wide byte budget every mailbox of the member draws from. */
    public ReaderAttemptBuilder<T, SplitT> workerBudget(WorkerMailboxBudget v) {
        this.workerBudget = v;
        return this;
    }

    public ReaderAttemptBuilder<T, SplitT> clock(NanoClock v) {
        this.clock = v;
        return this;
    }

    /** Optional: the signal an idle driver waits on (default: a new one). */
    public ReaderAttemptBuilder<T, SplitT> signal(LoopSignal v) {
        this.signal = v;
        return this;
    }

    /** Optional: the loop's counters (default: new ones). */
    public ReaderAttemptBuilder<T, SplitT> loopMetrics(ReaderLoopMetrics v) {
        this.loopMetrics = v;
        return this;
    }

    /** Optional: how warnings name the reader (default: job id and subtask). */
    public ReaderAttemptBuilder<T, SplitT> identity(ReaderIdentity v) {
        this.identity = v;
        return this;
    }

    public ReaderAttemptBuilder<T, SplitT> reader(ManagedSourceReader<T, SplitT> v) {
        this.reader = v;
        return this;
    }

    /** Optional: the collector, if known now; an engine may bind it per call instead. */
    public ReaderAttemptBuilder<T, SplitT> output(Collector<T> v) {
        this.output = v;
        return this;
    }

    public ReaderAttemptBuilder<T, SplitT> pollBudget(PollBudget v) {
        this.pollBudget = v;
        return this;
    }

    public ReaderAttemptBuilder<T, SplitT> recordSizer(ToLongFunction<T> v) {
        this.recordSizer = v;
        return this;
    }

    public ReaderAttemptBuilder<T, SplitT> splitSerializer(Serializer<SplitT> v) {
        this.splitSerializer = v;
        return this;
    }

    /** Optional: the connector's source-event serializer, if it declares one. */
    public ReaderAttemptBuilder<T, SplitT> eventSerializer(Serializer<SourceEvent> v) {
        this.eventSerializer = v;
        return this;
    }

    /** The capability digest recorded in the checkpoint metadata (the planned one). */
    public ReaderAttemptBuilder<T, SplitT> capabilityDigest(String v) {
        this.capabilityDigest = v;
        return this;
    }

    public ReaderAttemptBuilder<T, SplitT> uplink(ReaderUplink v) {
        this.uplink = v;
        return this;
    }

    /**
     * Optional: wraps the callbacks the loop sees (the fault-injection world puts its fault points
     * between the loop and the attempt this way).
     */
    public ReaderAttemptBuilder<T, SplitT> hostDecorator(UnaryOperator<ReaderLoopHost<SplitT>> v) {
        this.hostDecorator = v;
        return this;
    }

    /**
     * Optional: told on the loop's thread when the connector marked a schema change, for an engine
     * binding that must return to its engine so the engine triggers the schema-change checkpoint
     * (Zeta 2.3.8).
     */
    public ReaderAttemptBuilder<T, SplitT> schemaChangeListener(
            ReaderAttempt.SchemaChangeListener v) {
        this.schemaChangeListener = v;
        return this;
    }

    /**
     * Optional: the split window to offer the coordinator ({@code reader.split-window}): the most
     * splits this attempt wants to hold unread, if its connector counts them ({@link
     * ManagedSourceReader#splitBacklog()}). 0 (the default) offers none.
     */
    public ReaderAttemptBuilder<T, SplitT> splitWindow(int v) {
        this.splitWindow = v;
        return this;
    }

    /**
     * Optional: {@code reader.off-loop-check}: compare the reader's state at one barrier in this
     * many with its state at the next call into the reader (see {@link OffLoopStateCheck}). 0 (the
     * default) turns the check off.
     */
    public ReaderAttemptBuilder<T, SplitT> offLoopCheckInterval(int v) {
        this.offLoopCheckInterval = v;
        return this;
    }

    public ReaderAttempt<T, SplitT> build() {
        return new ReaderAttempt<>(this);
    }
}
