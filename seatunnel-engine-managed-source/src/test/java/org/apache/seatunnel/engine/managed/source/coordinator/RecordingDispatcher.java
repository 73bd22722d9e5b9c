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

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/** Records every dispatch; answers with {@link #responder} when set, else leaves it unanswered. */
final class RecordingDispatcher implements CommandDispatcher {
    final List<Sent> sent = new ArrayList<>();
    Function<SourceCommandEnvelope, AdmissionAck> responder;

    @Override
    public void dispatch(SourceCommandEnvelope envelope, AckCallback callback) {
        Sent s = new Sent(envelope, callback);
        sent.add(s);
        if (responder != null) {
            AdmissionAck ack = responder.apply(envelope);
            if (ack != null) {
                s.answered = true;
                callback.onAdmission(ack);
            }
        }
    }

    static AdmissionAck accept(SourceCommandEnvelope e) {
        return AdmissionAck.accepted(e.targetAttemptId(), e.senderSequence());
    }

    List<SourceCommandEnvelope> of(CommandKind kind) {
        return sent.stream()
                .map(s -> s.envelope)
                .filter(e -> e.commandKind() == kind)
                .collect(Collectors.toList());
    }

    /** Splits carried by every SPLIT_ASSIGNMENT dispatched so far. */
    int splitsAssigned() {
        int n = 0;
        for (SourceCommandEnvelope e : of(CommandKind.SPLIT_ASSIGNMENT)) {
            n += AssignmentPayload.decode(e.payload()).size();
        }
        return n;
    }

    /** Answers every unanswered dispatch with ACCEPTED. */
    void acceptAll() {
        for (Sent s : new ArrayList<>(sent)) {
            if (!s.answered) {
                s.answered = true;
                s.callback.onAdmission(accept(s.envelope));
            }
        }
    }

    /** One dispatch. */
    static final class Sent {
        final SourceCommandEnvelope envelope;
        final AckCallback callback;
        boolean answered;

        Sent(SourceCommandEnvelope envelope, AckCallback callback) {
            this.envelope = envelope;
            this.callback = callback;
        }
    }
}
