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

import static org.apache.seatunnel.engine.managed.source.reader.AdmissionCodes.code;

import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.ProtocolVersion;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The first step of a {@link ReaderMailbox}'s admission of a wire envelope (STIP-31 "Admission and
 * overload"): the header must name this mailbox's reader attempt, a supported protocol major, the
 * durability its kind fixes, a usable command id and a payload within {@code
 * command.max-payload-bytes}. It runs before any capacity is taken, so a refused command costs the
 * mailbox nothing. Local signals ({@link LocalSignals}) have no header and skip it.
 *
 * <p>Threading: immutable; any admitting thread.
 */
final class CommandHeaderCheck {
    /** What {@link #check} answers for an acceptable header; every refusal is negative. */
    static final long PASSED = 0;

    private final long jobId;
    private final long sourceRuntimeId;
    private final int subtask;
    private final long attemptId;
    private final int maxPayloadBytes;

    CommandHeaderCheck(
            long jobId, long sourceRuntimeId, int subtask, long attemptId, int maxPayloadBytes) {
        this.jobId = jobId;
        this.sourceRuntimeId = sourceRuntimeId;
        this.subtask = subtask;
        this.attemptId = attemptId;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    /**
     * {@link #PASSED}, or the negative admission code (see {@link AdmissionCodes}) of the first
     * objection, checked in the STIP's order. Allocates nothing.
     */
    long check(SourceCommandEnvelope env) {
        if (env.protocolMajor() != ProtocolVersion.MAJOR) {
            return code(AdmissionStatus.UNSUPPORTED_PROTOCOL, ReasonCode.UNSUPPORTED_MAJOR_VERSION);
        }
        if (env.jobId() != jobId
                || env.sourceRuntimeId() != sourceRuntimeId
                || env.targetSubtask() != subtask) {
            return code(AdmissionStatus.INVALID_PAYLOAD, ReasonCode.WRONG_TARGET);
        }
        if (env.targetAttemptId() != attemptId) {
            return code(AdmissionStatus.STALE_TARGET, ReasonCode.STALE_ATTEMPT);
        }
        if (env.durability() != env.commandKind().durability()) {
            return code(AdmissionStatus.INVALID_PAYLOAD, ReasonCode.KIND_DURABILITY_MISMATCH);
        }
        if (env.commandId() == DedupWindow.EMPTY) {
            return code(AdmissionStatus.INVALID_PAYLOAD, ReasonCode.BAD_HEADER_FIELD);
        }
        if (env.payloadLength() > maxPayloadBytes) {
            return code(AdmissionStatus.INVALID_PAYLOAD, ReasonCode.OVERSIZE);
        }
        return PASSED;
    }
}
