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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports inbound frames this member refused: counted per reason, logged at most once per reason
 * per interval.
 *
 * <p>Threading: lock-free; called concurrently on Hazelcast operation threads. A log line is
 * claimed with one compare-and-set on the reason's last-report time, so at most one thread logs per
 * reason and interval; the line carries the count refused for that reason since the last line.
 *
 * <p>Why not log every refusal: a misbehaving or hostile peer can send thousands of frames a
 * second, and a log line per frame would turn it into a disk-filling attack. Why WARN and not
 * DEBUG: a refusal means a peer sends frames this member cannot trust, which an operator must be
 * able to see. Lines name ids, kind, status and reason only, never payload bytes (the envelope's
 * {@code toString} holds sizes, not content).
 */
final class RefusalReporter {
    private static final Logger LOG = LoggerFactory.getLogger(RefusalReporter.class);

    /** At most one log line per reason in this interval. */
    static final long LOG_INTERVAL_MILLIS = TimeUnit.SECONDS.toMillis(60);

    private static final long NEVER = Long.MIN_VALUE;

    private final TransportMetrics metrics;
    private final LongSupplier clockMillis;
    private final long intervalMillis;
    private final AtomicLongArray lastLogged;
    // Refusals per reason as of the last line, so a line can report how many it stands for.
    private final AtomicLongArray countAtLastLog;

    RefusalReporter(TransportMetrics metrics, LongSupplier clockMillis, long intervalMillis) {
        this.metrics = metrics;
        this.clockMillis = clockMillis;
        this.intervalMillis = intervalMillis;
        // One slot per reason, and one more for handler failures.
        int n = ReasonCode.values().length + 1;
        this.lastLogged = new AtomicLongArray(n);
        this.countAtLastLog = new AtomicLongArray(n);
        for (int i = 0; i < n; i++) {
            lastLogged.set(i, NEVER);
        }
    }

    /**
     * Counts and maybe logs a refused frame. {@code env} is null for a frame that did not decode.
     */
    void refused(AdmissionAck ack, SourceCommandEnvelope env, Object from) {
        ReasonCode reason = ack.reasonCode();
        long total = metrics.recordRefused(reason);
        int i = reason.ordinal();
        long now = clockMillis.getAsLong();
        long last = lastLogged.get(i);
        if (last != NEVER && now - last < intervalMillis) {
            return;
        }
        if (!lastLogged.compareAndSet(i, last, now)) {
            return;
        }
        long since = total - countAtLastLog.getAndSet(i, total);
        if (env != null && isRoutine(reason)) {
            LOG.info(
                    "Refused {} from {}: {} {} ({} refused for this reason in the last {} s)",
                    env,
                    from,
                    ack.status(),
                    reason,
                    since,
                    intervalMillis / 1000);
        } else if (env == null) {
            LOG.warn(
                    "Refused an undecodable command frame from {}: {} {} ({} refused for this"
                            + " reason in the last {} s; later ones are counted in"
                            + " ManagedSourceTransportRefused{})",
                    from,
                    ack.status(),
                    reason,
                    since,
                    intervalMillis / 1000,
                    TransportMetrics.pascal(reason.name()));
        } else {
            LOG.warn(
                    "Refused {} from {}: {} {} ({} refused for this reason in the last {} s;"
                            + " later ones are counted in ManagedSourceTransportRefused{})",
                    env,
                    from,
                    ack.status(),
                    reason,
                    since,
                    intervalMillis / 1000,
                    TransportMetrics.pascal(reason.name()));
        }
    }

    /**
     * Refusals that also happen without any fault: frames of an attempt or epoch a failover
     * replaced, and frames racing a target's end. INFO; every other reason means a peer sends
     * frames it should not, WARN.
     */
    private static boolean isRoutine(ReasonCode reason) {
        return reason == ReasonCode.TARGET_TERMINATED
                || reason == ReasonCode.STALE_ATTEMPT
                || reason == ReasonCode.STALE_EPOCH;
    }

    /** For failures of our own handlers: the same once-per-interval rule, with the stack trace. */
    void handlerFailed(SourceCommandEnvelope env, RuntimeException e) {
        int i = ReasonCode.values().length;
        long now = clockMillis.getAsLong();
        long last = lastLogged.get(i);
        if ((last == NEVER || now - last >= intervalMillis)
                && lastLogged.compareAndSet(i, last, now)) {
            LOG.warn(
                    "Admission of {} failed in the runtime's handler; answering RETRY_LATER"
                            + " (logged once per {} s, counted in"
                            + " ManagedSourceTransportHandlerFailures)",
                    env,
                    intervalMillis / 1000,
                    e);
        }
    }
}
