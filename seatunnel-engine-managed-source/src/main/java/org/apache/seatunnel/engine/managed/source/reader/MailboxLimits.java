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

/**
 * The bounds of one reader mailbox. Immutable; validated on construction so a bad value fails at
 * configuration load with the option's name rather than at the first admission.
 */
public final class MailboxLimits {
    /** The default of {@code reader-mailbox.max-sequence-gaps}. */
    public static final int DEFAULT_MAX_SEQUENCE_GAPS = 1024;

    private final int maxCommands;
    private final long maxBytes;
    private final int reservedCommands;
    private final long reservedBytes;
    private final int maxPayloadBytes;
    private final int dedupWindow;
    private final long retryAfterMillis;
    private final int maxSequenceGaps;

    public MailboxLimits(
            int maxCommands,
            long maxBytes,
            int reservedCommands,
            long reservedBytes,
            int maxPayloadBytes,
            int dedupWindow,
            long retryAfterMillis) {
        this(
                maxCommands,
                maxBytes,
                reservedCommands,
                reservedBytes,
                maxPayloadBytes,
                dedupWindow,
                retryAfterMillis,
                DEFAULT_MAX_SEQUENCE_GAPS);
    }

    private MailboxLimits(
            int maxCommands,
            long maxBytes,
            int reservedCommands,
            long reservedBytes,
            int maxPayloadBytes,
            int dedupWindow,
            long retryAfterMillis,
            int maxSequenceGaps) {
        positive("reader-mailbox.max-commands", maxCommands);
        positive("reader-mailbox.max-bytes", maxBytes);
        positive("reader-mailbox.reserved-control-commands", reservedCommands);
        positive("reader-mailbox.reserved-control-bytes", reservedBytes);
        positive("command.max-payload-bytes", maxPayloadBytes);
        positive("reader-mailbox.dedup-window", dedupWindow);
        positive("retry.initial-backoff", retryAfterMillis);
        positive("reader-mailbox.max-sequence-gaps", maxSequenceGaps);
        if (dedupWindow < 2 || dedupWindow > (1 << 30)) {
            // The window is a power-of-two table indexed by a mask: 1 would round to an empty
            // table and above 2^30 the rounding overflows.
            throw new IllegalArgumentException(
                    "reader-mailbox.dedup-window must be within 2 .. 2^30, was " + dedupWindow);
        }
        if (maxPayloadBytes > maxBytes) {
            throw new IllegalArgumentException(
                    "command.max-payload-bytes ("
                            + maxPayloadBytes
                            + ") must not exceed reader-mailbox.max-bytes ("
                            + maxBytes
                            + ")");
        }
        this.maxCommands = maxCommands;
        this.maxBytes = maxBytes;
        this.reservedCommands = reservedCommands;
        this.reservedBytes = reservedBytes;
        this.maxPayloadBytes = maxPayloadBytes;
        this.dedupWindow = Integer.highestOneBit(dedupWindow - 1) << 1;
        this.retryAfterMillis = retryAfterMillis;
        this.maxSequenceGaps = maxSequenceGaps;
    }

    /** A copy with another {@code reader-mailbox.max-sequence-gaps}. */
    public MailboxLimits withMaxSequenceGaps(int gaps) {
        return new MailboxLimits(
                maxCommands,
                maxBytes,
                reservedCommands,
                reservedBytes,
                maxPayloadBytes,
                dedupWindow,
                retryAfterMillis,
                gaps);
    }

    /** STIP-31's initial production defaults. */
    public static MailboxLimits defaults() {
        return new MailboxLimits(1024, 4L << 20, 64, 256L << 10, 512 << 10, 4096, 10);
    }

    private static void positive(String key, long v) {
        if (v <= 0) {
            throw new IllegalArgumentException(key + " must be positive, was " + v);
        }
    }

    public int maxCommands() {
        return maxCommands;
    }

    public long maxBytes() {
        return maxBytes;
    }

    public int reservedCommands() {
        return reservedCommands;
    }

    public long reservedBytes() {
        return reservedBytes;
    }

    public int maxPayloadBytes() {
        return maxPayloadBytes;
    }

    /** A power of two. */
    public int dedupWindow() {
        return dedupWindow;
    }

    public long retryAfterMillis() {
        return retryAfterMillis;
    }

    /**
     * {@code reader-mailbox.max-sequence-gaps}: the bound of the attempt's applied-command ledger
     * above its watermark.
     */
    public int maxSequenceGaps() {
        return maxSequenceGaps;
    }

    @Override
    public String toString() {
        return "MailboxLimits{commands="
                + maxCommands
                + ", bytes="
                + maxBytes
                + ", reservedCommands="
                + reservedCommands
                + ", reservedBytes="
                + reservedBytes
                + ", maxPayload="
                + maxPayloadBytes
                + ", dedupWindow="
                + dedupWindow
                + ", maxSequenceGaps="
                + maxSequenceGaps
                + '}';
    }
}
