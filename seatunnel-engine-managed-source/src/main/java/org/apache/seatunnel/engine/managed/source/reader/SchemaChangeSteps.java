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

import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;

/**
 * The loop's glue to its schema-change sub-state ({@link SchemaChangeGate}): when the connector
 * marks a change through its turn's collector the turn yields, the host is asked for a
 * schema-change checkpoint, the next barrier taken is bound to the change, and no poll turn runs
 * until that checkpoint completed. End of input reported meanwhile is latched here and entered when
 * the change completes. A refusal of the gate fails the attempt with {@code SCHEMA_CHANGE_FAILED}.
 *
 * <p>Threading: the loop's driving thread only (whichever thread drives the loop, one at a time).
 */
final class SchemaChangeSteps {
    private final ReaderEventLoop<?, ?> loop;
    private final ReaderMailbox mailbox;
    private final ReaderLoopHost<?> host;
    private final SchemaChangeGate gate;
    private final PollScheduler polls;
    // END_OF_INPUT reported while a schema change was in progress: entered when it completes.
    private boolean endOfInputLatched;

    SchemaChangeSteps(
            ReaderEventLoop<?, ?> loop,
            ReaderLoopHost<?> host,
            SchemaChangeGate gate,
            PollScheduler polls) {
        this.loop = loop;
        this.mailbox = loop.mailbox();
        this.host = host;
        this.gate = gate;
        this.polls = polls;
    }

    SchemaChangeGate gate() {
        return gate;
    }

    /** End of input came while a change is in progress: entered when it completes. */
    void latchEndOfInput() {
        endOfInputLatched = true;
    }

    /** The turn that marked a schema change returned: ask the host for its checkpoint. */
    void turnEnded() {
        long epoch = gate.turnEnded();
        try {
            host.onSchemaChangeRequested(gate.mark(), epoch);
        } catch (Throwable e) {
            try {
                gate.triggerFailed(epoch, e);
            } catch (SchemaChangeRefusedException refused) {
                refuse(refused);
            }
        }
    }

    void barrierTaken(long checkpointId) {
        try {
            gate.barrierTaken(checkpointId);
        } catch (SchemaChangeRefusedException e) {
            refuse(e);
        }
    }

    void checkpointCompleted(long checkpointId) {
        boolean ended;
        try {
            ended = gate.checkpointCompleted(checkpointId);
        } catch (SchemaChangeRefusedException e) {
            refuse(e);
            return;
        }
        if (ended) {
            polls.want();
            if (endOfInputLatched && loop.lifecycle() == ReaderLifecycle.RUNNING) {
                endOfInputLatched = false;
                loop.enterEndOfInput();
            }
        }
    }

    void checkpointAborted(long checkpointId) {
        try {
            gate.checkpointAborted(checkpointId);
        } catch (SchemaChangeRefusedException e) {
            refuse(e);
        }
    }

    void checkTimeout() {
        try {
            gate.checkTimeout();
        } catch (SchemaChangeRefusedException e) {
            refuse(e);
        }
    }

    private void refuse(SchemaChangeRefusedException e) {
        ConnectorFailures.fail(mailbox, ReasonCode.SCHEMA_CHANGE_FAILED, e);
    }
}
