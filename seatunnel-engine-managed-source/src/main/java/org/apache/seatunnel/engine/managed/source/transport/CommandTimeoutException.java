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

package org.apache.seatunnel.engine.managed.source.transport;

import java.util.concurrent.TimeoutException;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;

/**
 * A send reached its deadline without a final admission answer. The command may still have been
 * admitted (a lost response); the sender of record resends the same command id and relies on the
 * target's deduplication.
 *
 * <p>Threading: immutable.
 */
public final class CommandTimeoutException extends TimeoutException {
    private static final long serialVersionUID = 1L;

    private final int attempts;
    private final transient AdmissionAck lastAck;

    public CommandTimeoutException(
            String message, int attempts, AdmissionAck lastAck, Throwable cause) {
        super(message);
        this.attempts = attempts;
        this.lastAck = lastAck;
        if (cause != null) {
            initCause(cause);
        }
    }

    /** Invocations made before the deadline (0 if it passed while queued). */
    public int attempts() {
        return attempts;
    }

    /** The last RETRY_LATER answer, or null if none arrived (only transport failures). */
    public AdmissionAck lastAck() {
        return lastAck;
    }
}
