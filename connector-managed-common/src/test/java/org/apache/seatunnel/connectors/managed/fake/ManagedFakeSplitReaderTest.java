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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.connectors.managed.reader.FetchedRecords;
import org.junit.jupiter.api.Test;

/**
 * Row generation on the fetch side, stepped with a manual pacer: chunks, slow data, rate limits,
 * bounded and unbounded splits. No threads, no real time.
 */
class ManagedFakeSplitReaderTest {

    /** A clock that moves only when the reader waits, by exactly what it waited. */
    static final class ManualPacer implements ManagedFakeSplitReader.Pacer {
        long now = 1_000_000_000L;
        final List<Long> waits = new ArrayList<>();

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public boolean await(long nanos) {
            waits.add(nanos);
            now += nanos;
            return true;
        }

        @Override
        public void wake() {}
    }

    private static ManagedFakeSplitReader reader(ManagedFakeConfig config, ManualPacer pacer) {
        return new ManagedFakeSplitReader(config, pacer, new Random(7));
    }

    private static List<String> payloads(FetchedRecords<ManagedFakeSplitReader.Row> batch) {
        List<String> out = new ArrayList<>();
        for (int s = 0; s < batch.splitCount(); s++) {
            for (ManagedFakeSplitReader.Row r : batch.records(s)) {
                out.add((String) r.row.getField(ManagedFakeRows.FIELD_PAYLOAD));
            }
        }
        return out;
    }

    @Test
    void boundedSplitsYieldEveryRowOnceInChunksAndThenFinish() throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder().splitCount(3).rowsPerSplit(50).build();
        ManagedFakeSplitReader r = reader(config, new ManualPacer());
        r.handleSplitsAdded(TestSupport.splits(3));
        List<String> all = new ArrayList<>();
        List<String> finished = new ArrayList<>();
        for (int i = 0; i < 10 && finished.size() < 3; i++) {
            FetchedRecords<ManagedFakeSplitReader.Row> b = r.fetch();
            assertTrue(b.recordCount() <= ManagedFakeSplitReader.CHUNK_ROWS, "one chunk at most");
            all.addAll(payloads(b));
            finished.addAll(b.finishedSplits());
        }
        all.sort(null);
        assertEquals(TestSupport.expectedPayloads(3, 50), all);
        assertEquals(3, finished.size());
        assertTrue(r.fetch().isEmpty(), "nothing after every split finished");
    }

    @Test
    void aSplitRestoredAtItsEndFinishesWithoutRows() throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder().splitCount(1).rowsPerSplit(5).build();
        ManagedFakeSplitReader r = reader(config, new ManualPacer());
        r.handleSplitsAdded(List.of(new ManagedFakeSplit(0, 5)));
        FetchedRecords<ManagedFakeSplitReader.Row> b = r.fetch();
        assertEquals(0, b.recordCount());
        assertEquals(java.util.Set.of("fake-0"), b.finishedSplits());
    }

    @Test
    void slowDataWaitsTheChunkDelayBeforeEachChunk() throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder()
                        .splitCount(1)
                        .rowsPerSplit(1000)
                        .slowDataMillis(200)
                        .slowDataJitter(false)
                        .build();
        ManualPacer pacer = new ManualPacer();
        ManagedFakeSplitReader r = reader(config, pacer);
        r.handleSplitsAdded(TestSupport.splits(1));
        assertEquals(ManagedFakeSplitReader.CHUNK_ROWS, r.fetch().recordCount());
        assertEquals(List.of(TimeUnit.MILLISECONDS.toNanos(200)), pacer.waits);
        assertEquals(ManagedFakeSplitReader.CHUNK_ROWS, r.fetch().recordCount());
        assertEquals(2, pacer.waits.size(), "every chunk waits its own delay");
    }

    @Test
    void jitteredDelaysStayWithinHalfAndOneAndAHalfTimes() throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder()
                        .splitCount(1)
                        .rowsPerSplit(100_000)
                        .slowDataMillis(100)
                        .build();
        ManualPacer pacer = new ManualPacer();
        ManagedFakeSplitReader r = reader(config, pacer);
        r.handleSplitsAdded(TestSupport.splits(1));
        for (int i = 0; i < 50; i++) {
            r.fetch();
        }
        for (long w : pacer.waits) {
            assertTrue(w >= 50_000_000L && w <= 150_000_000L, "delay " + w + " in [0.5x, 1.5x]");
        }
    }

    /**
     * Fetches from one endless split at {@code rate} rows/s for one second of the manual clock and
     * returns the rows, each checked never to be due in the future.
     */
    private static long pacedSecond(long rate, ManualPacer pacer) throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder()
                        .splitCount(1)
                        .rowsPerSplit(10_000_000)
                        .rowsPerSecond(rate)
                        .build();
        ManagedFakeSplitReader r = reader(config, pacer);
        r.handleSplitsAdded(TestSupport.splits(1));
        long start = pacer.now;
        long rows = 0;
        while (pacer.now - start < TimeUnit.SECONDS.toNanos(1)) {
            FetchedRecords<ManagedFakeSplitReader.Row> b = r.fetch();
            for (int s = 0; s < b.splitCount(); s++) {
                for (ManagedFakeSplitReader.Row row : b.records(s)) {
                    assertTrue(row.dueNanos <= pacer.now, "a row is never due in the future");
                    rows++;
                }
            }
        }
        return rows;
    }

    @Test
    void aRateLimitPacesRowsAndDatesEachRowByItsToken() throws Exception {
        long rows = pacedSecond(1000, new ManualPacer());
        // One token at the start plus one per millisecond of waiting, the last wait's at most.
        assertTrue(rows >= 1000 && rows <= 1011, "rows in one paced second: " + rows);
    }

    @Test
    void aRateLimitWaitsForTenMillisecondsOfTokensAtATimeAndOneRowAtLowRates() throws Exception {
        for (long rate : new long[] {20, 1000, 6400, 100_000}) {
            ManualPacer pacer = new ManualPacer();
            long rows = pacedSecond(rate, pacer);
            long perWait = Math.max(1, Math.min(ManagedFakeSplitReader.CHUNK_ROWS, rate / 100));
            long expectedWaits = rate / perWait;
            assertTrue(
                    Math.abs(pacer.waits.size() - expectedWaits) <= 1,
                    rate + " rows/s: " + pacer.waits.size() + " waits, expected " + expectedWaits);
            assertTrue(
                    rows >= rate && rows <= rate + perWait + 1,
                    rate + " rows/s: " + rows + " rows in one paced second");
        }
    }

    @Test
    void unboundedSplitsNeverFinish() throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder().splitCount(2).rowsPerSplit(3).bounded(false).build();
        ManagedFakeSplitReader r = reader(config, new ManualPacer());
        r.handleSplitsAdded(TestSupport.splits(2));
        for (int i = 0; i < 5; i++) {
            FetchedRecords<ManagedFakeSplitReader.Row> b = r.fetch();
            assertEquals(ManagedFakeSplitReader.CHUNK_ROWS, b.recordCount());
            assertTrue(b.finishedSplits().isEmpty());
        }
    }
}
