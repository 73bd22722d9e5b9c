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

import java.util.Objects;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;

/**
 * Cancellation or fatal failure of one reader attempt. Immutable. Travels on the mailbox's
 * independent terminal slot, never through the bounded queue, so it cannot be refused for capacity.
 */
public final class TerminalSignal {

    /** Why the attempt ends. */
    public enum Kind {
        CANCEL,
        FATAL
    }

    private final Kind kind;
    private final ReasonCode reason;
    private final Throwable cause;

    private TerminalSignal(Kind kind, ReasonCode reason, Throwable cause) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.reason = Objects.requireNonNull(reason, "reason");
        this.cause = cause;
    }

    public static TerminalSignal cancel() {
        return new TerminalSignal(Kind.CANCEL, ReasonCode.NONE, null);
    }

    public static TerminalSignal fatal(ReasonCode reason, Throwable cause) {
        return new TerminalSignal(Kind.FATAL, reason, cause);
    }

    public Kind kind() {
        return kind;
    }

    public ReasonCode reason() {
        return reason;
    }

    /** The failure, if any; may carry user data, so it goes to logs and task failure only. */
    public Throwable cause() {
        return cause;
    }

    @Override
    public String toString() {
        return "TerminalSignal{" + kind + ", " + reason + '}';
    }
}
