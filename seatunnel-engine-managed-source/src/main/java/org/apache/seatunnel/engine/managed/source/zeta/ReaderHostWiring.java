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

import com.hazelcast.cluster.Address;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderAttempt;
import org.apache.seatunnel.engine.managed.source.reader.ReaderIdentity;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.transport.SenderUplink;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceMemberService;

/**
 * Builds what a Lane A reader attempt on Zeta is made of from the planned source, its options and
 * the member's runtime: the uplink to the coordinator and the engine-neutral {@link ReaderAttempt}.
 * Kept apart from {@link ManagedReaderHost} so the host reads as what it does per engine call.
 *
 * <p>Threading: stateless; called on the task thread that opens the reader.
 */
final class ReaderHostWiring {
    private static final long REGISTRATION_DEADLINE_MILLIS = 60_000;

    private ReaderHostWiring() {}

    /** Fails when the reader's capability differs from the one the plan was made for. */
    static void checkCapability(
            ManagedSourceReader<?, ?> reader, ManagedLaneSource<?, ?, ?> source) {
        String digest = reader.managedSourceCapability().digest();
        if (!digest.equals(source.decision().capabilityDigest())) {
            throw new IllegalStateException(
                    "Reader capability digest "
                            + digest
                            + " differs from the planned "
                            + source.decision().capabilityDigest());
        }
    }

    /** How warnings and errors name the reader of {@code subtask}. */
    static ReaderIdentity identity(ManagedLaneSource<?, ?, ?> source, long jobId, int subtask) {
        return new ReaderIdentity(source.inner().getPluginName(), jobId, source.jobName(), subtask);
    }

    /** The attempt's way to its coordinator: the member's sender, reports batched per member. */
    static SenderUplink<Address> uplink(ManagedSourceMemberService service, Address coordinator) {
        return new SenderUplink<>(
                service.sender(),
                // Travels with the other local readers' reports of this checkpoint.
                service.reportBatcher()::submit,
                coordinator,
                System::currentTimeMillis,
                REGISTRATION_DEADLINE_MILLIS);
    }

    /** The attempt of {@code identity}'s reader with the source's options. */
    static <T, SplitT extends SourceSplit> ReaderAttempt<T, SplitT> attempt(
            ManagedLaneSource<T, SplitT, ?> source,
            ManagedSourceReader<T, SplitT> reader,
            ManagedSourceMemberService service,
            ReaderIdentity identity,
            long attemptId,
            SenderUplink<Address> uplink,
            ReaderLoopMetrics loopMetrics,
            ReaderAttempt.SchemaChangeListener schemaChangeListener) {
        ManagedSourceConfig cfg = source.config();
        return ReaderAttempt.<T, SplitT>builder()
                .ids(identity.jobId(), source.sourceRuntimeId(), identity.subtask(), attemptId)
                .mailboxLimits(cfg.mailboxLimits())
                .workerBudget(service.workerBudget())
                .clock(NanoClock.SYSTEM)
                .loopMetrics(loopMetrics)
                .identity(identity)
                .reader(reader)
                .pollBudget(cfg.pollBudget().withLinger(cfg.pollLinger(service::readerCount)))
                .splitWindow(cfg.splitWindow())
                .offLoopCheckInterval(cfg.offLoopCheckEnabled() ? cfg.offLoopCheckInterval() : 0)
                .recordSizer(ReaderRowSizing.<T>recordSizer(source.inner()))
                .splitSerializer(source.inner().getSplitSerializer())
                .eventSerializer(source.eventSerializer())
                .capabilityDigest(source.decision().capabilityDigest())
                .uplink(uplink)
                .schemaChangeListener(schemaChangeListener)
                .build();
    }
}
