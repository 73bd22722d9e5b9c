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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.junit.jupiter.api.Test;

/**
 * No lost availability or command wakeup: a host thread idles on the loop signal with a wait far
 * longer than the test's bound, so any lost wakeup fails the test instead of being hidden by a
 * timeout.
 */
class ReaderLoopWakeupTest {

    @Test
    void commandsAndAvailabilityRacingWithIdleAlwaysCauseAnotherIteration() throws Exception {
        LoopHarness h = new LoopHarness();
        AtomicInteger polls = new AtomicInteger();
        AtomicInteger dataReady = new AtomicInteger();
        h.reader.onPoll =
                (out, ctx) -> {
                    polls.incrementAndGet();
                    synchronized (h.reader) {
                        if (dataReady.get() > 0) {
                            dataReady.decrementAndGet();
                            out.collect("row");
                        }
                        if (dataReady.get() > 0) {
                            return PollStatus.MORE_AVAILABLE;
                        }
                        h.reader.available = new CompletableFuture<>();
                        return PollStatus.NOTHING_AVAILABLE;
                    }
                };
        h.loop.start(0);
        AtomicBoolean stop = new AtomicBoolean();
        Thread host =
                new Thread(
                        () -> {
                            while (!stop.get()) {
                                LoopStatus s;
                                synchronized (h.lock) {
                                    s = h.loop.runOnce();
                                }
                                if (s == LoopStatus.IDLE) {
                                    h.signal.await(TimeUnit.SECONDS.toNanos(60));
                                }
                            }
                        });
        host.start();
        int rounds = 2_000;
        for (int i = 0; i < rounds; i++) {
            if (i % 2 == 0) {
                h.offer(h.assign("s" + i));
            } else {
                CompletableFuture<Void> f;
                synchronized (h.reader) {
                    dataReady.incrementAndGet();
                    f = h.reader.available;
                }
                f.complete(null);
            }
            final int expectedSplits = i / 2 + 1;
            final int expectedRows = (i + 1) / 2;
            await().pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(1))
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () ->
                                    h.loop.metrics().commandsApplied() >= expectedSplits
                                            && h.loop.metrics().records() >= expectedRows);
        }
        stop.set(true);
        h.signal.signal();
        host.join(10_000);
        assertEquals(rounds / 2, h.loop.metrics().records());
        assertEquals(
                rounds / 2, h.reader.trace.stream().filter(t -> t.startsWith("addSplits")).count());
        assertEquals(0, Collections.frequency(h.reader.trace, "close"));
    }
}
