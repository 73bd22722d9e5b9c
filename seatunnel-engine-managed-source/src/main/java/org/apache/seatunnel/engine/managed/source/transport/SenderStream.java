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
import java.util.concurrent.CompletableFuture;
import javax.annotation.concurrent.GuardedBy;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;

/**
 * One ordered stream of {@link CommandSender}: the sends to one {@code (member, sourceRuntimeId,
 * subtask, lane)}, the batch in flight and its {@link RetryState}.
 *
 * <p>Threading: {@code incoming}, {@code size} and {@code pumpScheduled} are guarded by the
 * stream's bin of {@link SenderStreams}' map (read and written only inside its {@code compute});
 * {@code closed} is also read outside it; every other field belongs to the sender thread.
 */
final class SenderStream {
    final Key key;
    final Object target;

    @GuardedBy("SenderStreams.streams bin")
    final ArrayDeque<Pending> incoming = new ArrayDeque<>();

    @GuardedBy("SenderStreams.streams bin")
    int size;

    @GuardedBy("SenderStreams.streams bin")
    boolean pumpScheduled;

    // Written inside the bin; also read by the sender thread outside it (a stream close() or a
    // break retired).
    volatile boolean closed;

    final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    int inFlight;
    final RetryState retry;

    SenderStream(Key key, Object target, RetryPolicy policy) {
        this.key = key;
        this.target = target;
        this.retry = new RetryState(policy);
    }

    /** One send. Immutable; its future is completed once, on the sender thread (or by close). */
    static final class Pending {
        final SourceCommandEnvelope env;
        final byte[] frame;
        final long deadlineMillis;
        final CompletableFuture<AdmissionAck> future;

        Pending(
                SourceCommandEnvelope env,
                byte[] frame,
                long deadlineMillis,
                CompletableFuture<AdmissionAck> future) {
            this.env = env;
            this.frame = frame;
            this.deadlineMillis = deadlineMillis;
            this.future = future;
        }
    }

    /** What a stream is keyed by. Immutable. */
    static final class Key {
        final Object target;
        final long sourceRuntimeId;
        final int subtask;
        final CommandSender.Lane lane;

        Key(Object target, long sourceRuntimeId, int subtask, CommandSender.Lane lane) {
            this.target = target;
            this.sourceRuntimeId = sourceRuntimeId;
            this.subtask = subtask;
            this.lane = lane;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return sourceRuntimeId == k.sourceRuntimeId
                    && subtask == k.subtask
                    && lane == k.lane
                    && target.equals(k.target);
        }

        @Override
        public int hashCode() {
            return ((target.hashCode() * 31 + Long.hashCode(sourceRuntimeId)) * 31 + subtask) * 31
                    + lane.ordinal();
        }

        @Override
        public String toString() {
            return target + "/source " + sourceRuntimeId + "/subtask " + subtask + "/" + lane;
        }
    }
}
