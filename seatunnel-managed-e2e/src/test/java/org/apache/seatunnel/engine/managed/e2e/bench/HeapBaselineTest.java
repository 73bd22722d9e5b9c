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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** The heap gate's baseline: what each job adds, on the heap every window started from. */
class HeapBaselineTest {
    @Test
    void aLaterWindowIsNotChargedWithTheHeapEarlierJobsLeft() {
        // Lane B ran first from 40 MiB and added 10; Lane A ran second, from the 42 MiB the
        // engine kept after Lane B's job, and added 10 too: the same on one baseline (41 MiB).
        double[][] onOne =
                ScaleScenarios.onOneBaseline(
                        new double[][] {{50}, {52}}, new double[][] {{40}, {42}});
        assertArrayEquals(new double[] {51}, onOne[0], 1e-9);
        assertArrayEquals(new double[] {51}, onOne[1], 1e-9);
    }

    @Test
    void whatALaneAddsMoreStaysInItsFigure() {
        double[][] onOne =
                ScaleScenarios.onOneBaseline(
                        new double[][] {{50, 51}, {55, 54}}, new double[][] {{40, 41}, {41, 40}});
        // Baseline: the median of 40, 41, 41, 40 = 40.5; Lane B adds 10, Lane A 14.
        assertArrayEquals(new double[] {50.5, 50.5}, onOne[0], 1e-9);
        assertArrayEquals(new double[] {54.5, 54.5}, onOne[1], 1e-9);
    }
}
