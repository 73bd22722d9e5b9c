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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.util.Objects;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.transport.CommandSender;

/**
 * The coordinator's {@link CommandDispatcher} over a member's {@link CommandSender}: a command goes
 * to the member its target reader registered from, with a deadline, and its outcome is handed back
 * to the loop's callback. What the Zeta host and the model world both dispatch through.
 *
 * <p>Threading: {@link #dispatch} runs on the coordinator loop and never blocks; the callback runs
 * on the sender's thread (see {@link CommandSender}).
 *
 * @param <M> the engine's member address
 */
public final class SenderDispatcher<M> implements CommandDispatcher {
    private final CommandSender<M> sender;
    private final IntFunction<M> readerMember;
    private final LongSupplier clockMillis;
    private final long deadlineMillis;

    /**
     * @param readerMember the member a reader subtask registered from, null before it registered
     * @param deadlineMillis how long a send may take, from dispatch to its final answer
     */
    public SenderDispatcher(
            CommandSender<M> sender,
            IntFunction<M> readerMember,
            LongSupplier clockMillis,
            long deadlineMillis) {
        this.sender = Objects.requireNonNull(sender, "sender");
        this.readerMember = Objects.requireNonNull(readerMember, "readerMember");
        this.clockMillis = Objects.requireNonNull(clockMillis, "clockMillis");
        this.deadlineMillis = deadlineMillis;
    }

    @Override
    public void dispatch(SourceCommandEnvelope env, AckCallback callback) {
        M target = readerMember.apply(env.targetSubtask());
        if (target == null) {
            callback.onTransportFailure(
                    new IllegalStateException(
                            "reader subtask " + env.targetSubtask() + " has not registered"));
            return;
        }
        sender.send(target, env, clockMillis.getAsLong() + deadlineMillis)
                .whenComplete(
                        (ack, err) -> {
                            if (err != null) {
                                callback.onTransportFailure(err);
                            } else {
                                callback.onAdmission(ack);
                            }
                        });
    }
}
