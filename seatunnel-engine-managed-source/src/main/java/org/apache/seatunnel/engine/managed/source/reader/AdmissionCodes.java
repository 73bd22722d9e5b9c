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

import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;

/**
 * The allocation-free result of {@link ReaderMailbox#admit}: a non-negative value is the mailbox
 * sequence of an accepted command; a negative one packs an {@link AdmissionStatus} and a {@link
 * ReasonCode}. {@link #ack} turns it into the wire answer when one is needed.
 *
 * <p>Threading: stateless, any thread.
 */
final class AdmissionCodes {
    // values() clones its array on every call; admission must not allocate.
    private static final AdmissionStatus[] STATUSES = AdmissionStatus.values();
    private static final ReasonCode[] REASONS = ReasonCode.values();

    private AdmissionCodes() {}

    /** The negative code of a command not given a sequence. */
    static long code(AdmissionStatus status, ReasonCode reason) {
        return -(1L + ((long) status.ordinal() << 16) + reason.ordinal());
    }

    static AdmissionStatus statusOf(long admitResult) {
        if (admitResult >= 0) {
            return AdmissionStatus.ACCEPTED;
        }
        return STATUSES[(int) ((-admitResult - 1) >>> 16)];
    }

    static ReasonCode reasonOf(long admitResult) {
        if (admitResult >= 0) {
            return ReasonCode.NONE;
        }
        return REASONS[(int) ((-admitResult - 1) & 0xffff)];
    }

    /** The acknowledgement of admission result {@code r} for attempt {@code attemptId}. */
    static AdmissionAck ack(long r, long attemptId, long retryAfterMillis) {
        if (r >= 0) {
            return AdmissionAck.accepted(attemptId, r);
        }
        AdmissionStatus status = statusOf(r);
        ReasonCode reason = reasonOf(r);
        if (status == AdmissionStatus.RETRY_LATER) {
            return AdmissionAck.retryLater(attemptId, retryAfterMillis, reason);
        }
        if (status == AdmissionStatus.ACCEPTED) {
            return AdmissionAck.accepted(attemptId, AdmissionAck.NO_SEQUENCE);
        }
        return AdmissionAck.rejected(status, attemptId, reason);
    }
}
