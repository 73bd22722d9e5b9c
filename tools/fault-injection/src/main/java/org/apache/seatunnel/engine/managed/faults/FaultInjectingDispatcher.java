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

package org.apache.seatunnel.engine.managed.faults;

import java.util.HashSet;
import java.util.Set;
import org.apache.seatunnel.engine.managed.source.coordinator.CommandDispatcher;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The coordinator's view of the transport, with faults at points 1 (command creation, first
 * dispatch of a command id only), 2 (operation send) and 4 (admission acknowledgement). Every
 * dispatch still ends in exactly one callback, as the {@link CommandDispatcher} contract demands,
 * except after a crash.
 *
 * <p>Threading: called on the coordinator loop (as every {@link CommandDispatcher}); the answers it
 * forwards run on whatever thread the {@link Transport} delivers them. Not thread-safe: meant for a
 * single-threaded run. Life cycle: one instance per coordinator epoch; after it injects a
 * coordinator CRASH it is dead and swallows every later dispatch, since a crashed coordinator sends
 * nothing more.
 */
public final class FaultInjectingDispatcher implements CommandDispatcher {
    private final Transport transport;
    private final FaultInjector faults;
    private final Runnable coordinatorCrash;
    private final Set<Long> created = new HashSet<>();
    private boolean dead;

    /**
     * @param coordinatorCrash called once when a CRASH fires at command creation: the run must fail
     *     the coordinator (and, on Zeta, restore the pipeline)
     */
    public FaultInjectingDispatcher(
            Transport transport, FaultInjector faults, Runnable coordinatorCrash) {
        this.transport = transport;
        this.faults = faults;
        this.coordinatorCrash = coordinatorCrash;
    }

    @Override
    public void dispatch(SourceCommandEnvelope env, AckCallback callback) {
        if (dead) {
            return;
        }
        String where = describe(env);
        if (created.add(env.commandId())) {
            FaultAction a = faults.at(FaultPoint.COMMAND_CREATION, where);
            if (a == FaultAction.CRASH) {
                dead = true;
                coordinatorCrash.run();
                return;
            }
            if (a == FaultAction.LOSE) {
                transport.send(env, null, Transport.Delivery.LOST);
                callback.onTransportFailure(
                        new InjectedFault(FaultPoint.COMMAND_CREATION, a, where));
                return;
            }
        }
        FaultAction send = faults.at(FaultPoint.OPERATION_SEND, where);
        if (send == FaultAction.LOSE) {
            transport.send(env, null, Transport.Delivery.LOST);
            callback.onTransportFailure(new InjectedFault(FaultPoint.OPERATION_SEND, send, where));
            return;
        }
        Transport.Delivery d =
                send == FaultAction.DELAY ? Transport.Delivery.HELD : Transport.Delivery.NOW;
        transport.send(env, ack -> answer(ack, callback, where), d);
        if (send == FaultAction.DUPLICATE) {
            // At-least-once: a second copy arrives later; nobody waits for its answer.
            transport.later(() -> transport.send(env, null, Transport.Delivery.NOW));
        }
    }

    private void answer(AdmissionAck ack, AckCallback callback, String where) {
        FaultAction a = faults.at(FaultPoint.ADMISSION_ACK, where + " " + ack.status());
        if (a == FaultAction.LOSE) {
            callback.onTransportFailure(new InjectedFault(FaultPoint.ADMISSION_ACK, a, where));
        } else if (a == FaultAction.DELAY) {
            transport.later(() -> callback.onAdmission(ack));
        } else {
            callback.onAdmission(ack);
        }
    }

    /** True once a CRASH fired here. */
    public boolean crashed() {
        return dead;
    }

    private static String describe(SourceCommandEnvelope env) {
        return env.commandKind()
                + " cmd="
                + env.commandId()
                + " seq="
                + env.senderSequence()
                + " to="
                + env.targetSubtask()
                + "/"
                + env.targetAttemptId();
    }
}
