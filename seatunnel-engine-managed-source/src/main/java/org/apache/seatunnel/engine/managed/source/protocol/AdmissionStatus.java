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

/** The seven admission outcomes of STIP-31. Wire codes are fixed forever. */
public enum AdmissionStatus {
    /**
     * Validated, capacity reserved, mailbox sequence allocated and visible to the current target
     * attempt. Not applied, not checkpointed.
     */
    ACCEPTED(1),
    /** Already admitted in this attempt; no second effect. Senders treat it like ACCEPTED. */
    DUPLICATE(2),
    /** Normal capacity is full; retry after {@code retryAfterMillis}. */
    RETRY_LATER(3),
    /** Addressed to an attempt that is no longer current. */
    STALE_TARGET(4),
    /** The target has terminated. */
    TERMINAL_REJECTED(5),
    /** Unknown protocol major version. */
    UNSUPPORTED_PROTOCOL(6),
    /** Header, checksum, size or kind is invalid. */
    INVALID_PAYLOAD(7);

    private final int wireCode;

    AdmissionStatus(int wireCode) {
        this.wireCode = wireCode;
    }

    public int wireCode() {
        return wireCode;
    }

    /** The status for a wire code, or null when unknown. */
    public static AdmissionStatus fromWireCode(int code) {
        for (AdmissionStatus s : values()) {
            if (s.wireCode == code) {
                return s;
            }
        }
        return null;
    }

    /** True when the command is (or already was) in the target's mailbox. */
    public boolean isAdmitted() {
        return this == ACCEPTED || this == DUPLICATE;
    }
}
