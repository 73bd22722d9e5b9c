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

package org.apache.seatunnel.engine.managed.source.fault;

/**
 * The eleven fault points of STIP-31's "Validation" section, in the order a split assignment and
 * then a checkpoint pass through them, each where the shipped runtime passes it. Each constant
 * names the actions the runtime carries out there; {@link FaultAction#PROCEED} everywhere.
 */
public enum FaultSite {
    /**
     * 1. Command creation: the coordinator stamped an assignment or control and hands it to the
     * transport ({@code OutboundCommands}). CRASH: the coordinator fails right after creating it;
     * LOSE: created, never sent, reported to the coordinator as a transport failure.
     */
    COMMAND_CREATION(1, FaultAction.CRASH, FaultAction.LOSE),
    /**
     * 2. Operation send: the command sender hands a frame or batch to the member transport ({@code
     * CommandSender}). LOSE: not sent, the invocation fails (the sender retries); DUPLICATE: sent
     * twice, the second answer counts; DELAY: sent after {@link FaultSeam#DELAY_MILLIS}; REORDER:
     * sent, and a copy sent again once a later transmission of the stream is answered (a stale
     * frame overtaken by newer ones).
     */
    OPERATION_SEND(
            2, FaultAction.LOSE, FaultAction.DUPLICATE, FaultAction.DELAY, FaultAction.REORDER),
    /**
     * 3. Capacity reservation: a reader mailbox reserves count and bytes for a coordinator command
     * ({@code ReaderMailbox}). RETRY_LATER: answered as if the mailbox were full.
     */
    CAPACITY_RESERVATION(3, FaultAction.RETRY_LATER),
    /**
     * 4. Admission acknowledgement: the answer to a delivered frame reaches the command sender.
     * LOSE: the sender sees a transport failure although the frame was admitted (its retry is
     * answered DUPLICATE); DELAY: the answer is handled after {@link FaultSeam#DELAY_MILLIS}.
     */
    ADMISSION_ACK(4, FaultAction.LOSE, FaultAction.DELAY),
    /**
     * 5. Connector apply before return: the reader loop is about to call the connector's {@code
     * addSplits}. CRASH: the attempt fails before the connector takes the splits.
     */
    CONNECTOR_APPLY_BEFORE_RETURN(5, FaultAction.CRASH),
    /**
     * 6. Apply completion: the connector's {@code addSplits} returned, the loop has not recorded
     * the command as applied. CRASH: the attempt fails there.
     */
    APPLY_COMPLETION(6, FaultAction.CRASH),
    /**
     * 7. Apply acknowledgement: the reader tells its coordinator how far it applied (flow control).
     * LOSE: not sent, as if the transport failed; DUPLICATE: sent twice.
     */
    APPLY_ACK(7, FaultAction.LOSE, FaultAction.DUPLICATE),
    /**
     * 8. Reader snapshot before state registration: the reader took the barrier and its snapshot
     * (and sent its inclusion report), the engine has not got the state ({@code snapshotState} of
     * the Zeta reader host). CRASH: the task fails; STALL: the state reaches the engine only when
     * the injection's {@link FaultInjection#hold} returns (past the checkpoint's timeout in the
     * tests).
     */
    READER_SNAPSHOT_BEFORE_STATE_REGISTRATION(8, FaultAction.CRASH, FaultAction.STALL),
    /**
     * 9. State registration before task acknowledgement: inside the engine (Zeta 2.3.8's {@code
     * SourceFlowLifeCycle.triggerBarrier}), between registering the reader's state and
     * acknowledging the barrier. No runtime code runs there: the engine tests interpose on the
     * task's acknowledgement themselves (CRASH: the task fails with its state registered; STALL:
     * the acknowledgement leaves late).
     */
    STATE_REGISTRATION_BEFORE_TASK_ACK(9, FaultAction.CRASH, FaultAction.STALL),
    /**
     * 10. Task acknowledgement before downstream forwarding: inside the engine, between the
     * acknowledgement and the barrier's forwarding to the sink; as 9, the engine tests interpose on
     * the forwarding themselves (CRASH: the task fails after acknowledging; STALL: the barrier
     * reaches the sink late).
     */
    TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING(10, FaultAction.CRASH, FaultAction.STALL),
    /**
     * 11. Global checkpoint completion before tracker garbage collection: the engine tells the
     * enumerator host a checkpoint completed, before the coordinator collects what it proves.
     * CRASH: the enumerator task fails (the job restores from that checkpoint); LOSE: the
     * notification is dropped; DELAY: it reaches the coordinator after {@link
     * FaultSeam#DELAY_MILLIS}.
     */
    GLOBAL_COMPLETION_BEFORE_TRACKER_GC(11, FaultAction.CRASH, FaultAction.LOSE, FaultAction.DELAY);

    private final int number;
    private final FaultAction[] actions;

    FaultSite(int number, FaultAction... actions) {
        this.number = number;
        this.actions = actions;
    }

    /** The number STIP-31 gives this point (1–11). */
    public int number() {
        return number;
    }

    /** Whether the runtime carries out {@code a} here ({@link FaultAction#PROCEED} always). */
    public boolean allows(FaultAction a) {
        if (a == FaultAction.PROCEED) {
            return true;
        }
        for (FaultAction x : actions) {
            if (x == a) {
                return true;
            }
        }
        return false;
    }
}
