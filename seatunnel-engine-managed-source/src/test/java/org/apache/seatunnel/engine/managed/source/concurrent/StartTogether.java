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

package org.apache.seatunnel.engine.managed.source.concurrent;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/** Test support: runs a body on several threads released at once, and waits for them, bounded. */
public final class StartTogether {
    private static final long BOUND_SECONDS = 30;

    private StartTogether() {}

    /**
     * Starts {@code threads} threads that each run {@code body} with their index once all are
     * started, and fails the test if one has not ended within 30 seconds.
     */
    public static void run(int threads, IntConsumer body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread th =
                    new Thread(
                            () -> {
                                try {
                                    start.await();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                    return;
                                }
                                body.accept(index);
                            });
            th.start();
            all.add(th);
        }
        start.countDown();
        for (Thread th : all) {
            th.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
            assertFalse(th.isAlive(), "a thread did not end within " + BOUND_SECONDS + " s");
        }
    }
}
