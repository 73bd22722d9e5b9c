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

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.ReaderUplink;

/**
 * A reader attempt's way to its coordinator over its member's {@link CommandSender}, fenced by the
 * coordinator epoch its registration bound in the attempt's {@link ReaderFence}. Checkpoint reports
 * may take another route (the Zeta binding batches them per coordinator).
 *
 * <p>Threading: as {@link ReaderUplink}; {@link #bind} is called once, by the thread opening the
 * attempt, before the attempt registers.
 *
 * @param <M> the engine's member address
 */
public final class SenderUplink<M> implements ReaderUplink {
    /** Where one command goes. */
    @FunctionalInterface
    public interface Route<M> {
        CompletableFuture<AdmissionAck> send(
                M coordinator, SourceCommandEnvelope env, long deadlineMillis);
    }

    private final Route<M> commands;
    private final Route<M> reports;
    private final M coordinator;
    private final LongSupplier clockMillis;
    private final long deadlineMillis;
    private volatile ReaderFence<M> fence;

    /**
     * @param reports where {@code READER_CHECKPOINTED} goes; null: with the other commands
     * @param deadlineMillis how long a send may take, from the call to its final answer
     */
    public SenderUplink(
            CommandSender<M> sender,
            Route<M> reports,
            M coordinator,
            LongSupplier clockMillis,
            long deadlineMillis) {
        Objects.requireNonNull(sender, "sender");
        this.commands = sender::send;
        this.reports = reports == null ? commands : reports;
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.clockMillis = Objects.requireNonNull(clockMillis, "clockMillis");
        this.deadlineMillis = deadlineMillis;
    }

    /** The fence of the attempt this uplink serves: where the registration binds the epoch. */
    public void bind(ReaderFence<M> fence) {
        this.fence = Objects.requireNonNull(fence, "fence");
    }

    @Override
    public long coordinatorEpoch() {
        ReaderFence<M> f = fence;
        return f == null ? 0 : f.epoch();
    }

    @Override
    public CompletableFuture<AdmissionAck> send(SourceCommandEnvelope command) {
        long deadline = clockMillis.getAsLong() + deadlineMillis;
        if (command.commandKind() == CommandKind.READER_CHECKPOINTED) {
            return reports.send(coordinator, command, deadline);
        }
        return commands.send(coordinator, command, deadline);
    }

    @Override
    public void registered(long coordinatorEpoch) {
        fence.bindEpoch(coordinatorEpoch);
    }
}
