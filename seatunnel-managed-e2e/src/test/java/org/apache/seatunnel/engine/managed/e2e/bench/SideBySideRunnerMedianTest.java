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

package org.apache.seatunnel.engine.managed.e2e.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The runner's median: the figure every repeated gate row is judged on. */
class SideBySideRunnerMedianTest {
    @Test
    void anOddCountGivesTheMiddleValue() {
        assertEquals(3.0, SideBySideRunner.median(new double[] {5, 1, 3}));
    }

    @Test
    void anEvenCountGivesTheMeanOfTheMiddleTwoNotTheLarger() {
        assertEquals(4.0, SideBySideRunner.median(new double[] {6.1, 1.9}), 1e-9);
        assertEquals(2.5, SideBySideRunner.median(new double[] {4, 1, 2, 3}), 1e-9);
    }

    @Test
    void theInputIsLeftUnsorted() {
        double[] v = {2, 1};
        SideBySideRunner.median(v);
        assertEquals(2.0, v[0]);
    }
}
