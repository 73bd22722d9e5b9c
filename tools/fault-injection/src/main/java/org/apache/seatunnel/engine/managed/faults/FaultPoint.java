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

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The eleven fault points of STIP-31's "Validation" section, in the order a split assignment and
 * then a checkpoint pass through them. Each constant says where it sits in the runtime and which
 * {@link FaultAction}s make sense there.
 */
public enum FaultPoint {
    /**
     * 1. Command creation: the coordinator loop has stamped an assignment or control (the tracker
     * says DISPATCHED) and hands it to the {@code CommandDispatcher}. CRASH: the coordinator dies
     * right after creating it, nothing is sent. LOSE: created but never sent; the dispatcher
     * reports a transport failure.
     */
    COMMAND_CREATION(1, FaultAction.CRASH, FaultAction.LOSE),
    /**
     * 2. Operation send: the transport carries the envelope to the reader's member. LOSE: never
     * delivered, transport failure; DUPLICATE: delivered twice; DELAY: delivered later.
     */
    OPERATION_SEND(2, FaultAction.LOSE, FaultAction.DUPLICATE, FaultAction.DELAY),
    /**
     * 3. Capacity reservation: the reader mailbox reserves count and bytes before admitting.
     * RETRY_LATER: answered as if the mailbox were full (a storm when several occurrences fire).
     */
    CAPACITY_RESERVATION(3, FaultAction.RETRY_LATER),
    /**
     * 4. Admission acknowledgement: the mailbox admitted the command and its {@code AdmissionAck}
     * travels back. LOSE: the coordinator sees a transport failure although it was admitted; DELAY:
     * the ack arrives later.
     */
    ADMISSION_ACK(4, FaultAction.LOSE, FaultAction.DELAY),
    /**
     * 5. Connector apply before return: the reader loop calls the connector's {@code addSplits},
     * which fails before taking the split. CRASH only.
     */
    CONNECTOR_APPLY_BEFORE_RETURN(5, FaultAction.CRASH),
    /**
     * 6. Apply completion: the connector's {@code addSplits} took the split, then the call fails
     * before the loop records the application. CRASH only.
     */
    APPLY_COMPLETION(6, FaultAction.CRASH),
    /**
     * 7. Apply acknowledgement: the reader tells the coordinator it applied an assignment (flow
     * control, never durability). LOSE, DUPLICATE or DELAY.
     */
    APPLY_ACK(7, FaultAction.LOSE, FaultAction.DUPLICATE, FaultAction.DELAY),
    /**
     * 8. Reader snapshot before state registration: the reader loop snapshotted the connector and
     * the runtime cut (and sent its inclusion report), but the state never reaches the engine.
     * CRASH: the task fails; STALL: the checkpoint never completes.
     */
    READER_SNAPSHOT_BEFORE_STATE_REGISTRATION(8, FaultAction.CRASH, FaultAction.STALL),
    /**
     * 9. State registration before task acknowledgement: the engine holds the reader's state, the
     * task never acknowledges the barrier. CRASH or STALL.
     */
    STATE_REGISTRATION_BEFORE_TASK_ACK(9, FaultAction.CRASH, FaultAction.STALL),
    /**
     * 10. Task acknowledgement before downstream forwarding: the task acknowledged, the barrier
     * never reaches the sink, so the sink never pre-commits. CRASH or STALL.
     */
    TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING(10, FaultAction.CRASH, FaultAction.STALL),
    /**
     * 11. Global checkpoint completion before tracker garbage collection: the checkpoint completed
     * (the sink committed) but {@code notifyCheckpointComplete} does not reach the coordinator.
     * CRASH: the coordinator dies first and the job restores from that checkpoint; LOSE: the
     * notification is lost; DELAY: it arrives late, possibly after later checkpoints.
     */
    GLOBAL_COMPLETION_BEFORE_TRACKER_GC(11, FaultAction.CRASH, FaultAction.LOSE, FaultAction.DELAY);

    private final int number;
    private final List<FaultAction> actions;

    FaultPoint(int number, FaultAction... actions) {
        this.number = number;
        this.actions = Collections.unmodifiableList(Arrays.asList(actions));
    }

    /** The number STIP-31 gives this point (1–11). */
    public int number() {
        return number;
    }

    /** The actions that make sense here; the first is the default. */
    public List<FaultAction> actions() {
        return actions;
    }

    public boolean allows(FaultAction a) {
        return actions.contains(a);
    }

    /** The point with STIP-31 number {@code n}. */
    public static FaultPoint byNumber(int n) {
        for (FaultPoint p : values()) {
            if (p.number == n) {
                return p;
            }
        }
        throw new IllegalArgumentException("no fault point " + n + " (1-11)");
    }
}
