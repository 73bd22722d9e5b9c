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

package org.apache.seatunnel.engine.managed.source.zeta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.junit.jupiter.api.Test;

/**
 * Observers listed under {@code META-INF/services} (this module's test resources list {@link
 * Recording}) see every host event, and one that throws never reaches the host.
 */
class RuntimeObserversTest {

    @Test
    void aServiceListedObserverSeesEveryEventAndItsFailuresStayWithIt() {
        Recording.throwing = true;
        try {
            int before = Recording.calls.get();
            ReaderLoopMetrics metrics = new ReaderLoopMetrics();
            RuntimeObservers.readerOpened(null, metrics);
            RuntimeObservers.barrierTaken(5);
            RuntimeObservers.readerClosed(null, metrics);
            RuntimeObservers.restoreRefused("lane mismatch");
            assertEquals(before + 4, Recording.calls.get());
            assertEquals("lane mismatch", Recording.lastReason);
        } finally {
            Recording.throwing = false;
        }
    }

    /** Counts calls; throws after counting while {@link #throwing}. */
    public static final class Recording implements ManagedRuntimeObserver {
        static final AtomicInteger calls = new AtomicInteger();
        static volatile boolean throwing;
        static volatile String lastReason;

        private static void called() {
            calls.incrementAndGet();
            if (throwing) {
                throw new IllegalStateException("observer failure (expected by the test)");
            }
        }

        @Override
        public void readerOpened(ReaderMailbox mailbox, ReaderLoopMetrics metrics) {
            called();
        }

        @Override
        public void barrierTaken(long waitNanos) {
            called();
        }

        @Override
        public void readerClosed(ReaderMailbox mailbox, ReaderLoopMetrics metrics) {
            called();
        }

        @Override
        public void restoreRefused(String reason) {
            lastReason = reason;
            called();
        }
    }
}
