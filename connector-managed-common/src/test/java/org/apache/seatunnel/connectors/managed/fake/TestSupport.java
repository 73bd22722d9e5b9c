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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/** Engine-free stand-ins for the engine objects a reader talks to. */
final class TestSupport {

    private TestSupport() {}

    /**
     * A collector that keeps every row and schema change it is given, in order.
     *
     * <p>Threading: {@code collect} runs on the polling thread; the lists are synchronized so a
     * test thread may read them while a poll runs.
     */
    static final class ListCollector implements Collector<SeaTunnelRow> {
        final Object checkpointLock = new Object();
        final List<SeaTunnelRow> rows = Collections.synchronizedList(new ArrayList<>());
        final List<Boolean> heldLock = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void collect(SeaTunnelRow record) {
            heldLock.add(Thread.holdsLock(checkpointLock));
            rows.add(record);
        }

        @Override
        public Object getCheckpointLock() {
            return checkpointLock;
        }

        List<String> payloads() {
            synchronized (rows) {
                List<String> out = new ArrayList<>(rows.size());
                for (SeaTunnelRow r : rows) {
                    out.add((String) r.getField(ManagedFakeRows.FIELD_PAYLOAD));
                }
                return out;
            }
        }
    }

    /**
     * A reader context that counts the reader's calls into it.
     *
     * <p>Threading: counters are atomic; {@code signalNoMoreElement} may be called from any thread.
     */
    static final class FakeReaderContext implements SourceReader.Context {
        final AtomicInteger noMoreElementSignals = new AtomicInteger();
        private final int index;
        private final Boundedness boundedness;

        FakeReaderContext(int index, Boundedness boundedness) {
            this.index = index;
            this.boundedness = boundedness;
        }

        @Override
        public int getIndexOfSubtask() {
            return index;
        }

        @Override
        public Boundedness getBoundedness() {
            return boundedness;
        }

        @Override
        public void signalNoMoreElement() {
            noMoreElementSignals.incrementAndGet();
        }

        @Override
        public void sendSplitRequest() {}

        @Override
        public void sendSourceEventToEnumerator(SourceEvent sourceEvent) {}

        @Override
        public MetricsContext getMetricsContext() {
            return null;
        }

        @Override
        public EventListener getEventListener() {
            return event -> {};
        }
    }

    /** Threading: any thread; an atomic value. */
    static final class ManualClock implements LongSupplier {
        private final AtomicLong now = new AtomicLong(1_000_000_000L);

        @Override
        public long getAsLong() {
            return now.get();
        }

        void advanceNanos(long nanos) {
            now.addAndGet(nanos);
        }
    }

    /**
     * A poll budget whose record allowance shrinks as the wrapped collector counts records, as the
     * Lane A runtime's does.
     *
     * <p>Threading: one poll turn on one thread.
     */
    static final class Budget implements PollContext {
        private final LongSupplier clock;
        private final long deadline;
        private int remaining;

        Budget(LongSupplier clock, int records, long deadlineNanos) {
            this.clock = clock;
            this.remaining = records;
            this.deadline = deadlineNanos;
        }

        Collector<SeaTunnelRow> counting(ListCollector target) {
            return new Collector<SeaTunnelRow>() {
                @Override
                public void collect(SeaTunnelRow record) {
                    remaining--;
                    target.collect(record);
                }

                @Override
                public Object getCheckpointLock() {
                    return target.getCheckpointLock();
                }
            };
        }

        @Override
        public int remainingRecords() {
            return Math.max(0, remaining);
        }

        @Override
        public long remainingBytes() {
            return Long.MAX_VALUE;
        }

        @Override
        public long deadlineNanos() {
            return deadline;
        }

        @Override
        public long nanoTime() {
            return clock.getAsLong();
        }

        @Override
        public boolean shouldYield() {
            return remaining <= 0 || clock.getAsLong() - deadline >= 0;
        }
    }

    static List<ManagedFakeSplit> splits(int count) {
        List<ManagedFakeSplit> out = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            out.add(new ManagedFakeSplit(n, 0));
        }
        return out;
    }

    static List<String> expectedPayloads(int splitCount, long rowsPerSplit) {
        List<String> out = new ArrayList<>();
        for (int n = 0; n < splitCount; n++) {
            for (long seq = 0; seq < rowsPerSplit; seq++) {
                out.add(ManagedFakeRows.payload(n, seq));
            }
        }
        Collections.sort(out);
        return out;
    }
}
