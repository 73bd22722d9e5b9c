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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ManagedSourceCapabilityTest {

    private static ManagedSourceCapability full() {
        return ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();
    }

    @Test
    void digestIsPinnedByGoldenValue() {
        // Golden values computed independently (Python hashlib over the documented canonical
        // form). A change here means every recorded checkpoint digest changes; that needs
        // a new descriptor version and a migration, never an edit of these strings.
        assertEquals(ManagedSourceCapability.computeDigest(2, 1, 0, 0x03), full().digest());
        assertEquals(GOLDEN_FULL_V2, full().digest());
        assertEquals(GOLDEN_EMPTY_V2, ManagedSourceCapability.builder().build().digest());
    }

    @Test
    void aVersionOneDigestOfTheSamePromisesStillRestores() {
        // The digest every Lane A checkpoint recorded before descriptor version 2.
        assertEquals(List.of(GOLDEN_FULL_V2, GOLDEN_FULL_V1), full().restorableDigests());
        assertFalse(
                full().restorableDigests().contains(GOLDEN_V1_ALL_FLAGS),
                "a version 1 descriptor that declared the removed flags is another capability");
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

    static final String GOLDEN_FULL_V2 = "7e9cc6565bff194478b824bd6df31ccf";
    static final String GOLDEN_EMPTY_V2 = "f3c4e14e761dcf0379e1b7fca3c08bda";
    static final String GOLDEN_FULL_V1 = "e40c328b76e310ea63d9df82b45d208c";
    static final String GOLDEN_V1_ALL_FLAGS = "61d572e27d0a9bdc68135e15d3ae7d94";
}
