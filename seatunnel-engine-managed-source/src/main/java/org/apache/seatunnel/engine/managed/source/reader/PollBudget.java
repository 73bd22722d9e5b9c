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
import java.util.concurrent.TimeUnit;

/** The per-turn budgets and the loop's timeouts. Immutable, validated on construction. */
public final class PollBudget {
    private final int maxRecords;
    private final long maxBytes;
    private final long softNanos;
    private final long hardNanos;
    private final long cancellationNanos;
    private final long cutHoldNanos;
    private final long idlePollNanos;
    private final PollLinger linger;

    /** With {@code reader.idle-wait}'s default (1 s) as the idle re-poll period. */
    public PollBudget(
            int maxRecords,
            long maxBytes,
            long softNanos,
            long hardNanos,
            long cancellationNanos,
            long cutHoldNanos) {
        this(
                maxRecords,
                maxBytes,
                softNanos,
                hardNanos,
                cancellationNanos,
                cutHoldNanos,
                TimeUnit.SECONDS.toNanos(1));
    }

    /**
     * @param idlePollNanos {@code reader.idle-wait}: after {@code NOTHING_AVAILABLE} the loop polls
     *     again at least this often even if the reader's availability future never completes
     */
    public PollBudget(
            int maxRecords,
            long maxBytes,
            long softNanos,
            long hardNanos,
            long cancellationNanos,
            long cutHoldNanos,
            long idlePollNanos) {
        if (maxRecords <= 0) {
            throw new IllegalArgumentException(
                    "poll.max-records-per-turn must be positive, was " + maxRecords);
        }
        if (maxBytes <= 0) {
            throw new IllegalArgumentException(
                    "poll.max-bytes-per-turn must be positive, was " + maxBytes);
        }
        if (softNanos <= 0 || hardNanos < softNanos || cancellationNanos < hardNanos) {
            throw new IllegalArgumentException(
                    "need 0 < poll.soft-duration <= poll.hard-duration <="
                            + " poll.cancellation-timeout");
        }
        if (cutHoldNanos <= 0) {
            throw new IllegalArgumentException("reader.cut-hold-timeout must be positive");
        }
        if (idlePollNanos <= 0) {
            throw new IllegalArgumentException("reader.idle-wait must be positive");
        }
        this.maxRecords = maxRecords;
        this.maxBytes = maxBytes;
        this.softNanos = softNanos;
        this.hardNanos = hardNanos;
        this.cancellationNanos = cancellationNanos;
        this.cutHoldNanos = cutHoldNanos;
        this.idlePollNanos = idlePollNanos;
        this.linger = PollLinger.NONE;
    }

    private PollBudget(PollBudget b, PollLinger linger) {
        this.maxRecords = b.maxRecords;
        this.maxBytes = b.maxBytes;
        this.softNanos = b.softNanos;
        this.hardNanos = b.hardNanos;
        this.cancellationNanos = b.cancellationNanos;
        this.cutHoldNanos = b.cutHoldNanos;
        this.idlePollNanos = b.idlePollNanos;
        this.linger = linger;
    }

    /**
     * This budget with {@code reader.poll-linger}: after {@code NOTHING_AVAILABLE} the loop polls
     * again no sooner than this, availability or not (commands still apply at once).
     */
    public PollBudget withLinger(long lingerNanos) {
        if (lingerNanos < 0 || lingerNanos > idlePollNanos) {
            throw new IllegalArgumentException(
                    "need 0 <= reader.poll-linger <= reader.idle-wait, was " + lingerNanos + " ns");
        }
        return new PollBudget(this, PollLinger.fixed(lingerNanos));
    }

    /**
     * This budget with {@code linger}, fixed or adaptive ({@code reader.wake-budget}); an adaptive
     * one is capped by the caller at {@code reader.idle-wait}.
     */
    public PollBudget withLinger(PollLinger linger) {
        return new PollBudget(this, Objects.requireNonNull(linger, "linger"));
    }

    /** STIP-31's initial production defaults. */
    public static PollBudget defaults() {
        return new PollBudget(
                64,
                4L << 20,
                TimeUnit.MILLISECONDS.toNanos(5),
                TimeUnit.SECONDS.toNanos(1),
                TimeUnit.SECONDS.toNanos(30),
                TimeUnit.SECONDS.toNanos(60));
    }

    public int maxRecords() {
        return maxRecords;
    }

    public long maxBytes() {
        return maxBytes;
    }

    public long softNanos() {
        return softNanos;
    }

    public long hardNanos() {
        return hardNanos;
    }

    public long cancellationNanos() {
        return cancellationNanos;
    }

    public long cutHoldNanos() {
        return cutHoldNanos;
    }

    /** Longest time a reader that reported {@code NOTHING_AVAILABLE} goes without a poll turn. */
    public long idlePollNanos() {
        return idlePollNanos;
    }

    /** The linger after a turn that found nothing available (see {@link PollLinger}). */
    public PollLinger linger() {
        return linger;
    }

    /** The linger it gives now after a turn with rows; 0: poll as soon as data is available. */
    public long lingerNanos() {
        return linger.nanos();
    }
}
