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

package org.apache.seatunnel.managed.testkit.conformance;

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * The last steps an {@link EnumeratorDriver} played, kept so that a violation names what led to it,
 * the lane it happened on and the seed that replays it.
 *
 * <p>Threading: the test thread that owns the driver, and its enumerator context under the
 * context's monitor; the history is not safe for other concurrent use.
 */
final class StepHistory {
    private static final int KEPT = 16;

    private final Deque<String> steps;
    private final String lane;
    private final long seed;

    /**
     * @param steps shared by every driver of one rule run, so a restored enumerator's violation
     *     shows the steps before the restore too
     */
    StepHistory(Deque<String> steps, String lane, long seed) {
        this.steps = steps;
        this.lane = lane;
        this.seed = seed;
    }

    void step(String what) {
        steps.addLast(what);
        while (steps.size() > KEPT) {
            steps.removeFirst();
        }
    }

    /** The latest step, or null before the first. */
    String last() {
        return steps.peekLast();
    }

    /** A violation of {@code rule} with the lane, the last steps and the seed. */
    ConformanceViolation violation(ConformanceRule rule, String observed) {
        return new ConformanceViolation(
                rule,
                observed
                        + " ("
                        + lane
                        + "; last steps: "
                        + String.join(", ", steps)
                        + ") [replay: -Dconformance.seed="
                        + seed
                        + "]");
    }

    /** The ids of {@code splits}, for a step. */
    static String ids(List<? extends SourceSplit> splits) {
        List<String> out = new ArrayList<>();
        for (SourceSplit s : splits) {
            out.add(s.splitId());
        }
        return out.toString();
    }
}
