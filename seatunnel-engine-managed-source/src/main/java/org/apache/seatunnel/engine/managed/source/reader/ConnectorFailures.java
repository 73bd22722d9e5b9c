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

import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;

/**
 * How a reader attempt ends when a connector call throws: an interrupt (the engine interrupts task
 * threads when it cancels or restarts a pipeline) ends it as a cancel and keeps the thread's
 * interrupt flag; anything else fails it with {@code CONNECTOR_FAILURE}. A terminal signal set
 * first (such as the watchdog's {@code POLL_CANCELLATION_TIMEOUT}) is never replaced: the mailbox
 * keeps the first.
 *
 * <p>Threading: stateless; called on the thread that made the connector call.
 */
final class ConnectorFailures {
    private static final int MAX_CAUSE_DEPTH = 16;

    private ConnectorFailures() {}

    /** A connector call threw {@code e}: ends the attempt as a cancel or a connector failure. */
    static void failConnector(ReaderMailbox mailbox, Throwable e) {
        if (isInterrupt(e)) {
            Thread.currentThread().interrupt();
            mailbox.terminate(TerminalSignal.cancel());
        } else {
            fail(mailbox, ReasonCode.CONNECTOR_FAILURE, e);
        }
    }

    /** Fails the attempt, unless a terminal signal came first. */
    static void fail(ReaderMailbox mailbox, ReasonCode reason, Throwable cause) {
        mailbox.terminate(TerminalSignal.fatal(reason, cause));
    }

    /** True if the thread is interrupted or {@code e} (or a cause) is an interrupt. */
    static boolean isInterrupt(Throwable e) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        Throwable t = e;
        for (int depth = 0; t != null && depth < MAX_CAUSE_DEPTH; depth++) {
            if (t instanceof InterruptedException
                    || t instanceof ClosedByInterruptException
                    || (t instanceof InterruptedIOException
                            && !(t instanceof SocketTimeoutException))) {
                return true;
            }
            t = t.getCause();
        }
        return false;
    }
}
