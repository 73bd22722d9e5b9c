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

package org.apache.seatunnel.engine.managed.source.checkpoint;

import java.io.IOException;
import java.util.Objects;

/**
 * Serialized Source runtime checkpoint metadata cannot be read. Restore must fail before execution
 * on it (STIP-31 "Compatibility and upgrades"), so the message is written for an operator: it names
 * what was found and what this release supports.
 *
 * <p>Threading: immutable, any thread.
 *
 * <p>It is an {@link IOException} so that it travels through SeaTunnel's {@code Serializer}
 * contract and the checkpoint restore paths that already handle I/O failures.
 */
public final class MetadataFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Bounded, stable classification for metrics and tests; the message carries the detail. */
    public enum Reason {
        BAD_MAGIC,
        UNSUPPORTED_VERSION,
        CHECKSUM_MISMATCH,
        TRUNCATED,
        OVERSIZE,
        BAD_FIELD,
        TRAILING_BYTES
    }

    private final Reason reason;

    public MetadataFormatException(Reason reason, String message) {
        super("Source runtime checkpoint metadata rejected (" + reason + "): " + message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }
}
