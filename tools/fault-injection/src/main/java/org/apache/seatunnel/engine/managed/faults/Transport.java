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

import java.util.function.Consumer;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The network under {@link FaultInjectingDispatcher}: carries envelopes to reader mailboxes and
 * their admission answers back, and parks whatever a fault delays until the run releases it.
 *
 * <p>Threading: as the implementation says; the in-process engine's is single-threaded.
 */
public interface Transport {

    /** How one send travels. */
    enum Delivery {
        /** Delivered now; {@code onAnswer} gets the mailbox's answer now. */
        NOW,
        /** Held back until the run releases it; answered then. */
        HELD,
        /**
         * Never delivered. A transport that keeps first deliveries in order (as Zeta's command
         * sender does for one target) must not let later sends to the same target overtake it until
         * the same command is sent again.
         */
        LOST
    }

    /**
     * Sends {@code env} to the reader attempt it names.
     *
     * @param onAnswer receives the admission answer; null when nobody waits for it
     */
    void send(SourceCommandEnvelope env, Consumer<AdmissionAck> onAnswer, Delivery delivery);

    /** Runs {@code action} later, when the run releases held messages. */
    void later(Runnable action);
}
