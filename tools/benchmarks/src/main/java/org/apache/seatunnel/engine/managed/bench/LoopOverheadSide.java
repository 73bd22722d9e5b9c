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

package org.apache.seatunnel.engine.managed.bench;

import java.util.function.LongUnaryOperator;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop;

/**
 * One side of {@link LoopOverheadInterleaved}: the reader of {@link LoopOverheadBenchmark} driven
 * either bare or through the managed loop, {@code applyAsLong(turns)} running that many turns and
 * returning the nanoseconds they took. Each side is loaded by its own class loader, so the two
 * never share a profile of the reader's call sites, as two JMH forks would not.
 *
 * <p>Threading: one thread (the runner's) calls {@code applyAsLong}.
 */
public final class LoopOverheadSide implements LongUnaryOperator {
    private final boolean managed;
    private final LoopOverheadBenchmark.CountingReader reader;
    private final ReaderEventLoop<Object, SourceSplit> loop;
    private final LoopOverheadBenchmark.BareTurn bareTurn = new LoopOverheadBenchmark.BareTurn();
    private final Collector<Object> sink;
    private final Object lock = new Object();
    // Written by the sink so that neither side's records can be optimized away.
    long sizes;
    Object last;

    public LoopOverheadSide(String record, String side) throws Exception {
        if (!"bare".equals(side) && !"managed".equals(side)) {
            throw new IllegalArgumentException("side is bare or managed: " + side);
        }
        this.managed = "managed".equals(side);
        this.reader = LoopOverheadBenchmark.CountingReader.forRecord(record);
        if (reader.zeta) {
            this.sink = LoopOverheadBenchmark.zetaCollector(lock, r -> last = r);
            this.loop = LoopOverheadBenchmark.managedLoop(reader, sink);
            return;
        }
        this.sink =
                new Collector<Object>() {
                    @Override
                    public void collect(Object r) {
                        if (r instanceof SeaTunnelRow) {
                            // Zeta's SeaTunnelSourceCollector sizes every row, by its type.
                            sizes +=
                                    ((SeaTunnelRow) r).getBytesSize(LoopOverheadBenchmark.ROW_TYPE);
                        }
                        last = r;
                    }

                    @Override
                    public Object getCheckpointLock() {
                        return lock;
                    }
                };
        this.loop = LoopOverheadBenchmark.managedLoop(reader, sink);
    }

    @Override
    public long applyAsLong(long turns) {
        long before = reader.next;
        long start = System.nanoTime();
        if (managed) {
            runManaged(turns);
        } else {
            runBare(turns);
        }
        long took = System.nanoTime() - start;
        LoopOverheadBenchmark.checkRecordsPerTurn(reader, reader.next - before, turns);
        return took;
    }

    private void runManaged(long turns) {
        for (long i = 0; i < turns; i++) {
            synchronized (lock) {
                loop.runOnce();
            }
        }
    }

    private void runBare(long turns) {
        for (long i = 0; i < turns; i++) {
            synchronized (lock) {
                reader.pollNextManaged(bareTurn.begin(sink), bareTurn);
            }
        }
    }
}
