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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The owner-thread assertion of the sender thread, on a real single-thread executor. */
class SenderSchedulerTest {
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void onlyTheSchedulersTasksPassTheSenderThreadCheck() throws Exception {
        SenderScheduler scheduler = SenderScheduler.of(executor);
        IllegalStateException off =
                assertThrows(
                        IllegalStateException.class,
                        () -> scheduler.checkSenderThread("a test off the sender thread"));
        assertEquals(
                "a test off the sender thread may only be called on the command sender thread,"
                        + " not on "
                        + Thread.currentThread().getName(),
                off.getMessage());

        CompletableFuture<String> inTask = new CompletableFuture<>();
        scheduler.execute(() -> check(scheduler, inTask));
        assertEquals("ok", inTask.get(10, TimeUnit.SECONDS));

        CompletableFuture<String> inTimer = new CompletableFuture<>();
        scheduler.schedule(() -> check(scheduler, inTimer), 1);
        assertEquals("ok", inTimer.get(10, TimeUnit.SECONDS));
    }

    private static void check(SenderScheduler scheduler, CompletableFuture<String> result) {
        try {
            scheduler.checkSenderThread("a sender task");
            result.complete("ok");
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }
}
