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

package org.apache.seatunnel.engine.managed.source.protocol;

import java.util.Objects;

/** The answer to one admission attempt (STIP-31 "Versioned command protocol"). Immutable. */
public final class AdmissionAck {
    public static final long NO_SEQUENCE = -1L;

    private final AdmissionStatus status;
    private final long targetAttemptId;
    private final long mailboxSequence;
    private final long retryAfterMillis;
    private final ReasonCode reasonCode;

    public AdmissionAck(
            AdmissionStatus status,
            long targetAttemptId,
            long mailboxSequence,
            long retryAfterMillis,
            ReasonCode reasonCode) {
        this.status = Objects.requireNonNull(status, "status");
        this.targetAttemptId = targetAttemptId;
        this.mailboxSequence = mailboxSequence;
        this.retryAfterMillis = retryAfterMillis;
        this.reasonCode = Objects.requireNonNull(reasonCode, "reasonCode");
    }

    public static AdmissionAck accepted(long targetAttemptId, long mailboxSequence) {
        return new AdmissionAck(
                AdmissionStatus.ACCEPTED, targetAttemptId, mailboxSequence, 0, ReasonCode.NONE);
    }

    public static AdmissionAck rejected(
            AdmissionStatus status, long targetAttemptId, ReasonCode reason) {
        return new AdmissionAck(status, targetAttemptId, NO_SEQUENCE, 0, reason);
    }

    public static AdmissionAck retryLater(
            long targetAttemptId, long retryAfterMillis, ReasonCode reason) {
        return new AdmissionAck(
                AdmissionStatus.RETRY_LATER,
                targetAttemptId,
                NO_SEQUENCE,
                retryAfterMillis,
                reason);
    }

    public AdmissionStatus status() {
        return status;
    }

    public long targetAttemptId() {
        return targetAttemptId;
    }

    public long mailboxSequence() {
        return mailboxSequence;
    }

    public long retryAfterMillis() {
        return retryAfterMillis;
    }

    public ReasonCode reasonCode() {
        return reasonCode;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof AdmissionAck)) {
            return false;
        }
        AdmissionAck a = (AdmissionAck) o;
        return status == a.status
                && targetAttemptId == a.targetAttemptId
                && mailboxSequence == a.mailboxSequence
                && retryAfterMillis == a.retryAfterMillis
                && reasonCode == a.reasonCode;
    }

    @Override
    public int hashCode() {
        return Objects.hash(status, targetAttemptId, mailboxSequence, retryAfterMillis, reasonCode);
    }

    @Override
    public String toString() {
        return "AdmissionAck{"
                + status
                + ", attempt="
                + targetAttemptId
                + ", seq="
                + mailboxSequence
                + ", retryAfterMs="
                + retryAfterMillis
                + ", reason="
                + reasonCode
                + '}';
    }
}
