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

package org.apache.seatunnel.connectors.managed.fake;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.reader.FetchedRecords;
import org.apache.seatunnel.connectors.managed.reader.ManagedSplitReader;

/**
 * Generates the rows of a ManagedFake reader's splits on the base's fetch thread, round-robin in
 * chunks of {@value #CHUNK_ROWS}: with {@code slow.data.millis} a chunk becomes ready that long
 * (jittered) after the previous one; with {@code rows.per.second} rows are paced by a token bucket,
 * in batches of about {@value #PACE_MILLIS} ms of tokens (one row at low rates) so that a high rate
 * does not cost a timed wake-up per row. Waiting happens here, on the fetch thread, never on the
 * reader loop.
 *
 * <p>Threading: the fetch thread calls everything but {@link #wakeUp()}; its cursors are fetch-side
 * positions only (the reader's checkpointed positions move in its emitter).
 */
final class ManagedFakeSplitReader
        implements ManagedSplitReader<ManagedFakeSplitReader.Row, ManagedFakeSplit> {
    /** Rows per fetch and per slow-data chunk, like today's readers' batches. */
    static final int CHUNK_ROWS = 64;

    /**
     * A paced fetch waits for this many milliseconds' worth of tokens (at least one, at most a
     * chunk): a wake-up costs tens of microseconds, so per-row waits would cap a loaded member far
     * below the configured rate.
     */
    static final int PACE_MILLIS = 10;

    /** A generated row with what the emitter needs to advance its split's position. */
    static final class Row {
        final SeaTunnelRow row;
        final long seq;

        /** When its rate token accrued ({@code Long.MIN_VALUE} without a rate limit). */
        final long dueNanos;

        Row(SeaTunnelRow row, long seq, long dueNanos) {
            this.row = row;
            this.seq = seq;
            this.dueNanos = dueNanos;
        }
    }

    /**
     * Time as the split reader sees it: the clock and a wait that {@link #wake()} ends early.
     * Threading: {@code await} on the fetch thread, {@code wake} from any thread.
     */
    interface Pacer {
        long nanoTime();

        /** Waits up to {@code nanos}; false if a {@link #wake()} ended it. */
        boolean await(long nanos) throws InterruptedException;

        void wake();
    }

    private final ManagedFakeConfig config;
    private final Pacer pacer;
    private final Random random;
    private final String tableId = ManagedFakeRows.TABLE_PATH.toString();
    // {splitNumber, next}, in round-robin order: a row comes from the head, which then goes to the
    // tail, so a fetch costs the same with a million splits as with one
    private final ArrayDeque<long[]> cursors = new ArrayDeque<>();
    // splits that arrived with no row left (read to their end before a restore)
    private final List<long[]> arrivedFinished = new ArrayList<>();
    private long chunkReadyAt = Long.MIN_VALUE;
    private double tokens = 1.0;
    private long tokensAt = Long.MIN_VALUE;

    ManagedFakeSplitReader(ManagedFakeConfig config, Pacer pacer, Random random) {
        this.config = config;
        this.pacer = pacer;
        this.random = random;
    }

    @Override
    public void handleSplitsAdded(List<ManagedFakeSplit> splits) {
        for (ManagedFakeSplit s : splits) {
            long[] c = {s.splitNumber(), s.offset()};
            if (finished(c)) {
                arrivedFinished.add(c);
            } else {
                cursors.addLast(c);
            }
        }
    }

    @Override
    public FetchedRecords<Row> fetch() throws InterruptedException {
        FetchedRecords.Builder<Row> batch = FetchedRecords.builder();
        finishEmptySplits(batch);
        if (cursors.isEmpty()) {
            return batch.build();
        }
        int allowed = CHUNK_ROWS;
        if (config.slowDataMillis() > 0 && !chunkReady()) {
            return batch.build();
        }
        long now = pacer.nanoTime();
        if (config.rowsPerSecond() > 0) {
            allowed = (int) Math.min(allowed, tokensAt(now));
            if (allowed == 0) {
                // Wait for the next tokens and emit them in this fetch: returning empty would add
                // the fetcher's empty-fetch backoff to every paced row's latency.
                long refill =
                        (long) Math.ceil((paceTokens() - tokens) * 1e9 / config.rowsPerSecond());
                pacer.await(Math.max(1, refill));
                now = pacer.nanoTime();
                allowed = (int) Math.min(CHUNK_ROWS, tokensAt(now));
                if (allowed == 0) {
                    return batch.build();
                }
            }
        }
        for (int i = 0; i < allowed && !cursors.isEmpty(); i++) {
            long[] c = cursors.pollFirst();
            int split = (int) c[0];
            long seq = c[1]++;
            long due = Long.MIN_VALUE;
            if (config.rowsPerSecond() > 0) {
                // This row's token accrued (tokens - 1) token periods ago.
                due = now - (long) ((tokens - 1.0) * 1e9 / config.rowsPerSecond());
                tokens -= 1.0;
            }
            SeaTunnelRow row =
                    ManagedFakeRows.row(
                            split, config.splitCount(), seq, tableId, config.datesColumn());
            String id = ManagedFakeSplit.splitId(split);
            batch.add(id, new Row(row, seq, due), 64);
            if (finished(c)) {
                batch.finish(id);
            } else {
                cursors.addLast(c);
            }
        }
        chunkReadyAt = Long.MIN_VALUE;
        return batch.build();
    }

    /** Slow data: true once the current chunk's time has come; waits for it otherwise. */
    private boolean chunkReady() throws InterruptedException {
        long now = pacer.nanoTime();
        if (chunkReadyAt == Long.MIN_VALUE) {
            long base = TimeUnit.MILLISECONDS.toNanos(config.slowDataMillis());
            long delay =
                    config.slowDataJitter() ? (long) (base * (0.5 + random.nextDouble())) : base;
            chunkReadyAt = now + delay;
        }
        long left = chunkReadyAt - now;
        if (left > 0) {
            pacer.await(left);
            return pacer.nanoTime() - chunkReadyAt >= 0;
        }
        return true;
    }

    /** Tokens a paced fetch waits for: {@value #PACE_MILLIS} ms' worth, within [1, a chunk]. */
    private long paceTokens() {
        return Math.max(1, Math.min(CHUNK_ROWS, config.rowsPerSecond() * PACE_MILLIS / 1000));
    }

    /** Refills the token bucket to {@code now}; whole tokens available. */
    private long tokensAt(long now) {
        long rate = config.rowsPerSecond();
        if (tokensAt != Long.MIN_VALUE && now > tokensAt) {
            tokens = Math.min(Math.max(1.0, rate), tokens + (now - tokensAt) * (double) rate / 1e9);
        }
        tokensAt = now;
        return (long) Math.floor(tokens);
    }

    private void finishEmptySplits(FetchedRecords.Builder<Row> batch) {
        for (long[] c : arrivedFinished) {
            batch.finish(ManagedFakeSplit.splitId((int) c[0]));
        }
        arrivedFinished.clear();
    }

    private boolean finished(long[] cursor) {
        return config.splitsEnd() && cursor[1] >= config.rowsPerSplit();
    }

    @Override
    public void wakeUp() {
        pacer.wake();
    }

    @Override
    public void close() {}

    /** The production pacer: {@code System.nanoTime} and a monitor wait. */
    static final class SystemPacer implements Pacer {
        private final Object lock = new Object();
        private boolean woken;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public boolean await(long nanos) throws InterruptedException {
            synchronized (lock) {
                long deadline = System.nanoTime() + nanos;
                while (!woken) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return true;
                    }
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                }
                woken = false;
                return false;
            }
        }

        @Override
        public void wake() {
            synchronized (lock) {
                woken = true;
                lock.notifyAll();
            }
        }
    }
}
