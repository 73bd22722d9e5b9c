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

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * How long a reader lingers after a poll turn found nothing available before data that arrives
 * wakes it again: fixed ({@code reader.poll-linger}), or adaptive from the member's wake budget
 * ({@code reader.wake-budget}).
 *
 * <p>A trickling reader costs a wake-up of its task thread (and of the engine's downstream) per
 * batch its data source hands over, so a member with many such readers spends its CPU on wake-ups
 * that each move a few rows: 64 readers paced at 1,250 rows/s that fetch every 10 ms wake 6,400
 * times a second where the stock path, which sleeps 100 ms after an empty poll, wakes 640 times.
 * The adaptive linger gives every reader the same share of a member-wide budget of wake-ups: {@code
 * readers on the member / budget}, so the more readers, the larger each batch, up to {@link
 * #ADAPTIVE_CAP_NANOS} (the stock path's empty-poll sleep). A reader whose data comes after a quiet
 * longer than its linger (an idle one) and one whose data is always there (it never reports nothing
 * available) is not delayed at all. A linger that catches no data still costs its reader a wake-up
 * at its end, so the loop leaves the adaptive linger out while the last one caught nothing, until
 * data comes within a linger's length of a quiet again ({@link #skipsWhileUseless()}), and counts
 * the linger from the reader's last wake-up ({@link #nanosAfter}).
 *
 * <p>Threading: immutable; {@link #nanos()} may be called from any thread. The adaptive linger
 * reads the reader count through the given supplier, which must be thread-safe.
 */
public abstract class PollLinger {
    /** The adaptive linger's ceiling: Zeta's sleep after an empty poll, the stock path's delay. */
    public static final long ADAPTIVE_CAP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** No linger: poll as soon as data is available. */
    public static final PollLinger NONE = fixed(0);

    private PollLinger() {}

    /**
     * The linger to apply after the turn that just found nothing available.
     *
     * @param turnEmitted whether that turn emitted rows before it found nothing more
     */
    public abstract long nanos(boolean turnEmitted);

    /**
     * Whether the loop may leave this linger out while it would catch nothing: true for the
     * adaptive linger, whose only purpose is to save wake-ups, false for {@code
     * reader.poll-linger}, which an operator set as a minimum gap between turns.
     */
    public abstract boolean skipsWhileUseless();

    /**
     * The linger to apply now, after the turn that just found nothing available, {@code
     * nanosSinceWake} after the reader last woke from a quiet. The adaptive linger spaces a
     * reader's wake-ups by its share of the budget, so it counts from that wake-up: a reader that
     * has been emitting for longer than its linger (its data is there but paused briefly, say while
     * its fetch thread opens the next file) is within its share already and does not linger, where
     * a linger would idle the engine's downstream that long for nothing. A fixed linger is a gap
     * after every quiet.
     *
     * @param turnEmitted whether that turn emitted rows before it found nothing more
     */
    public long nanosAfter(boolean turnEmitted, long nanosSinceWake) {
        long linger = nanos(turnEmitted);
        return skipsWhileUseless() ? Math.max(0, linger - Math.max(0, nanosSinceWake)) : linger;
    }

    /** The linger after a turn that emitted rows (what the options ask for). */
    public final long nanos() {
        return nanos(true);
    }

    /** Always {@code nanos} ({@code reader.poll-linger}). */
    public static PollLinger fixed(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("a linger cannot be negative: " + nanos + " ns");
        }
        return new Fixed(nanos);
    }

    /**
     * {@code readers.getAsInt() / wakesPerSecond} seconds, at most {@code capNanos}.
     *
     * @param readers the Lane A readers on this member now
     * @param wakesPerSecond the member's wake-up budget ({@code reader.wake-budget}), positive
     * @param capNanos the longest linger (the smaller of {@link #ADAPTIVE_CAP_NANOS} and {@code
     *     reader.idle-wait})
     */
    public static PollLinger adaptive(IntSupplier readers, int wakesPerSecond, long capNanos) {
        if (wakesPerSecond <= 0 || capNanos < 0) {
            throw new IllegalArgumentException(
                    "an adaptive linger needs a positive budget and a cap, was "
                            + wakesPerSecond
                            + "/s and "
                            + capNanos
                            + " ns");
        }
        return new Adaptive(readers, wakesPerSecond, capNanos);
    }

    private static final class Fixed extends PollLinger {
        private final long nanos;

        Fixed(long nanos) {
            this.nanos = nanos;
        }

        @Override
        public long nanos(boolean turnEmitted) {
            return nanos;
        }

        @Override
        public boolean skipsWhileUseless() {
            return false;
        }

        @Override
        public String toString() {
            return "PollLinger{fixed " + nanos + " ns}";
        }
    }

    private static final class Adaptive extends PollLinger {
        private final IntSupplier readers;
        private final long nanosPerReader;
        private final long capNanos;

        Adaptive(IntSupplier readers, int wakesPerSecond, long capNanos) {
            this.readers = readers;
            this.nanosPerReader = TimeUnit.SECONDS.toNanos(1) / wakesPerSecond;
            this.capNanos = capNanos;
        }

        @Override
        public long nanos(boolean turnEmitted) {
            if (!turnEmitted) {
                return 0;
            }
            int n = Math.max(0, readers.getAsInt());
            // n is at most the member's reader slots: the product cannot overflow before the cap.
            return n >= capNanos / Math.max(1, nanosPerReader) ? capNanos : n * nanosPerReader;
        }

        @Override
        public boolean skipsWhileUseless() {
            return true;
        }

        @Override
        public String toString() {
            return "PollLinger{adaptive "
                    + nanosPerReader
                    + " ns per reader, cap "
                    + capNanos
                    + " ns}";
        }
    }
}
