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

package org.apache.seatunnel.engine.managed.source.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one retry layer's arithmetic and its bound. */
class RetryPolicyTest {

    @Test
    void delaysDoubleFromTheInitialBackoffUpToTheMaximum() {
        RetryPolicy p = new RetryPolicy(10, 100, 8);
        List<Long> delays = new ArrayList<>();
        for (int retry = 1; retry < 8; retry++) {
            delays.add(p.delayBeforeRetry(retry, 0));
        }
        assertEquals(List.of(10L, 20L, 40L, 80L, 100L, 100L, 100L), delays);
    }

    @Test
    void aHintRaisesADelayButIsCappedAndNeverShortensIt() {
        RetryPolicy p = new RetryPolicy(10, 100, 8);
        assertEquals(30, p.delayBeforeRetry(1, 30));
        assertEquals(10, p.delayBeforeRetry(1, 5));
        assertEquals(100, p.delayBeforeRetry(1, 5_000));
    }

    @Test
    void atMaxAttemptsTheBackoffIsExhaustedAndCountsNothingMore() {
        RetryPolicy.Backoff b = new RetryPolicy(1, 4, 3).newBackoff();
        assertEquals(1, b.attempts());
        assertEquals(1, b.next(0));
        assertEquals(2, b.next(0));
        assertEquals(3, b.attempts());
        assertTrue(b.exhausted());
        assertEquals(RetryPolicy.EXHAUSTED, b.next(0));
        assertEquals(3, b.attempts());
        assertEquals(RetryPolicy.EXHAUSTED, RetryPolicy.SINGLE_ATTEMPT.newBackoff().next(0));
    }

    @Test
    void hugeRetryNumbersDoNotOverflow() {
        RetryPolicy p = new RetryPolicy(7, 60_000, Integer.MAX_VALUE);
        assertEquals(60_000, p.delayBeforeRetry(1_000_000, 0));
        assertEquals(60_000, p.delayBeforeRetry(63, 0));
    }

    @Test
    void boundsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(10, 5, 1));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(10, 20, 0));
    }
}
