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

package org.apache.seatunnel.api.source.managed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ManagedSourceCapabilityTest {

    private static ManagedSourceCapability full() {
        return ManagedSourceCapability.builder()
                .boundedPoll(true)
                .wakeup(true)
                .attemptFencing(true)
                .sourceEvents(true)
                .asyncEnumerator(true)
                .build();
    }

    @Test
    void digestIsPinnedByGoldenValue() {
        // Golden values computed independently (Python hashlib over the documented canonical
        // form). A change here means every recorded checkpoint digest changes; that needs
        // a new descriptor version and a migration, never an edit of these strings.
        assertEquals(ManagedSourceCapability.computeDigest(1, 1, 0, 0x1f), full().digest());
        assertEquals(GOLDEN_FULL, full().digest());
        assertEquals(GOLDEN_EMPTY, ManagedSourceCapability.builder().build().digest());
    }

    @Test
    void digestChangesWhenAnyFieldChanges() {
        String base = full().digest();
        assertNotEquals(base, ManagedSourceCapability.builder().boundedPoll(true).build().digest());
        assertNotEquals(
                base,
                ManagedSourceCapability.builder()
                        .boundedPoll(true)
                        .wakeup(true)
                        .attemptFencing(true)
                        .sourceEvents(true)
                        .asyncEnumerator(true)
                        .protocolVersion(1, 1)
                        .build()
                        .digest());
    }

    @Test
    void equalDescriptorsHaveEqualDigests() {
        assertEquals(full(), full());
        assertEquals(full().digest(), full().digest());
        assertEquals(32, full().digest().length());
    }

    @Test
    void laneAEligibilityNamesEveryMissingPromise() {
        assertEquals("", full().laneAIneligibilityReason(1));
        String reason = ManagedSourceCapability.builder().build().laneAIneligibilityReason(2);
        assertTrue(reason.contains("protocol major 1 != runtime 2"), reason);
        assertTrue(reason.contains("bounded poll"), reason);
        assertTrue(reason.contains("wakeup"), reason);
    }

    static final String GOLDEN_FULL = "61d572e27d0a9bdc68135e15d3ae7d94";
    static final String GOLDEN_EMPTY = "545f9ebc63303783b44b3582e7f11ee1";
}
