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

/**
 * Why a command was not accepted. A bounded set, so it is safe as a metric label; it never carries
 * user data. Wire codes are fixed forever.
 */
public enum ReasonCode {
    NONE(0),
    BAD_MAGIC(1),
    UNSUPPORTED_MAJOR_VERSION(2),
    FRAME_CHECKSUM_MISMATCH(3),
    PAYLOAD_CHECKSUM_MISMATCH(4),
    TRUNCATED(5),
    OVERSIZE(6),
    UNKNOWN_KIND(7),
    UNKNOWN_DURABILITY(8),
    KIND_DURABILITY_MISMATCH(9),
    BAD_HEADER_FIELD(10),
    TRAILING_BYTES(11),
    MAILBOX_COUNT_FULL(12),
    MAILBOX_BYTES_FULL(13),
    WORKER_BUDGET_FULL(14),
    STALE_ATTEMPT(15),
    ALREADY_ADMITTED(16),
    TARGET_TERMINATED(17),
    RESERVED_CAPACITY_EXHAUSTED(18),
    NO_SUCH_TARGET(19),
    WRONG_TARGET(20),
    POLL_CANCELLATION_TIMEOUT(21),
    CUT_HOLD_TIMEOUT(22),
    CONNECTOR_FAILURE(23),
    LEDGER_GAPS_EXCEEDED(24),
    /** The frame names another job than the target's. */
    WRONG_JOB(25),
    /** The frame's subtask is outside the source's parallelism. */
    SUBTASK_OUT_OF_RANGE(26),
    /** The frame carries another coordinator epoch than the one the target is bound to. */
    STALE_EPOCH(27),
    /** The frame comes from a member the engine did not deploy the claimed sender on. */
    FOREIGN_SENDER(28),
    /**
     * A coordinator-bound frame from a reader attempt that is not the registered attempt of its
     * subtask, or a registration that would replace a live attempt within one coordinator epoch.
     */
    UNREGISTERED_ATTEMPT(29),
    /** The payload does not decode as the kind's payload. */
    MALFORMED_PAYLOAD(30),
    /** The kind is not accepted from another member in this direction (e.g. a local barrier). */
    KIND_NOT_ACCEPTED(31),
    /**
     * The target cannot check the frame yet (the engine has not recorded the reader's member, or
     * the reader has not learned its coordinator's epoch): retry.
     */
    AWAITING_REGISTRATION(32),
    /**
     * A reader's schema change was refused or failed: overlapping changes, the bound checkpoint
     * aborted or superseded, the trigger failed, or reader.schema-change-timeout passed.
     */
    SCHEMA_CHANGE_FAILED(33),
    /**
     * Not offered: an earlier command of the same batch to the same target was answered {@code
     * RETRY_LATER}, and a command must not overtake one sent before it.
     */
    BEHIND_REFUSED(34);

    private final int wireCode;

    ReasonCode(int wireCode) {
        this.wireCode = wireCode;
    }

    public int wireCode() {
        return wireCode;
    }

    /** The reason for a wire code, or null when unknown. */
    public static ReasonCode fromWireCode(int code) {
        for (ReasonCode r : values()) {
            if (r.wireCode == code) {
                return r;
            }
        }
        return null;
    }
}
