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
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * Fault point 1, command creation: between the coordinator loop, which has stamped an assignment or
 * control, and the runtime's own dispatcher (the member's command sender), on the first dispatch of
 * each command id. Points 2 and 4 are the network's ({@code ModelNetwork}), under the sender.
 *
 * <p>Threading: called on the coordinator loop (as every {@link CommandDispatcher}). Not
 * thread-safe: meant for a single-threaded run. Life cycle: one instance per coordinator epoch;
 * after it injects a coordinator CRASH it is dead and swallows every later dispatch, since a
 * crashed coordinator sends nothing more.
 */
public final class FaultInjectingDispatcher implements CommandDispatcher {
    private final CommandDispatcher dispatcher;
    private final FaultInjector faults;
    private final Runnable coordinatorCrash;
    private final Set<Long> created = new HashSet<>();
    private boolean dead;

    /**
     * @param coordinatorCrash called once when a CRASH fires at command creation: the run must fail
     *     the coordinator (and, on Zeta, restore the pipeline)
     */
    public FaultInjectingDispatcher(
            CommandDispatcher dispatcher, FaultInjector faults, Runnable coordinatorCrash) {
        this.dispatcher = dispatcher;
        this.faults = faults;
        this.coordinatorCrash = coordinatorCrash;
    }

    @Override
    public void dispatch(SourceCommandEnvelope env, AckCallback callback) {
        if (dead) {
            return;
        }
        if (created.add(env.commandId())) {
            String where = describe(env);
            FaultAction a = faults.at(FaultPoint.COMMAND_CREATION, where);
            if (a == FaultAction.CRASH) {
                dead = true;
                coordinatorCrash.run();
                return;
            }
            if (a == FaultAction.LOSE) {
                callback.onTransportFailure(
                        new InjectedFault(FaultPoint.COMMAND_CREATION, a, where));
                return;
            }
        }
        dispatcher.dispatch(env, callback);
    }

    /** True once a CRASH fired here. */
    public boolean crashed() {
        return dead;
    }

    /** How faults name a command: kind, id, sequence and target; never its payload. */
    public static String describe(SourceCommandEnvelope env) {
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
