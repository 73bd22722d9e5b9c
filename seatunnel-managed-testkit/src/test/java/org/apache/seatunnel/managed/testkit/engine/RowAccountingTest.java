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

package org.apache.seatunnel.managed.testkit.engine;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Exactly-once accounting fails on a missing, a duplicated or an unexpected key, and says which.
 */
class RowAccountingTest {
    private static final List<String> EXPECTED = Arrays.asList("a", "b", "c");

    @Test
    void sameKeysInAnyOrderAreExactlyOnce() {
        assertDoesNotThrow(
                () -> RowAccounting.assertExactlyOnce(EXPECTED, Arrays.asList("c", "a", "b")));
    }

    @Test
    void missingDuplicatedAndUnexpectedKeysAreNamed() {
        AssertionError e =
                assertThrows(
                        AssertionError.class,
                        () ->
                                RowAccounting.assertExactlyOnce(
                                        EXPECTED, Arrays.asList("a", "a", "c", "z")));
        assertEquals(
                "not exactly once: 3 keys expected, 4 rows seen; missing 1 [b], duplicated 1"
                        + " [a=2], unexpected 1 [z]",
                e.getMessage());
    }

    @Test
    void duplicatesAndNoDuplicates() {
        assertEquals(
                Collections.singletonMap("x", 3),
                RowAccounting.duplicates(Arrays.asList("x", "y", "x", "x")));
        assertThrows(
                AssertionError.class,
                () -> RowAccounting.assertNoDuplicates(Arrays.asList("x", "x")));
        assertThrows(
                IllegalArgumentException.class,
                () -> RowAccounting.assertExactlyOnce(Arrays.asList("x", "x"), EXPECTED));
    }
}
