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

package org.apache.seatunnel.engine.managed.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CheckpointLogTrace} on lines as cluster.sh's members log them. */
class CheckpointLogTraceTest {
    @Test
    void pairsEachTriggerWithItsCompletionAndCountsOneThatNeverCompleted() {
        String log =
                "23:59:59.900 INFO  [pool-1] CheckpointCoordinator - wait checkpoint completed: 1\n"
                        + "23:59:59.950 INFO  [pool-2] SomethingElse - unrelated\n"
                        + "00:00:00.020 INFO  [pool-1] CheckpointCoordinator - pending"
                        + " checkpoint(1/1@99) notify finished!\n"
                        + "00:00:02.000 INFO  [pool-1] CheckpointCoordinator - wait checkpoint"
                        + " completed: 2\n"
                        + "00:00:02.250 INFO  [pool-1] CheckpointCoordinator - pending"
                        + " checkpoint(2/1@99) notify finished!\n"
                        + "00:00:04.000 INFO  [pool-1] CheckpointCoordinator - wait checkpoint"
                        + " completed: 3\n";

        CheckpointLogTrace trace = CheckpointLogTrace.parse(log);

        assertEquals(Arrays.asList(120L, 250L), trace.millis());
        assertEquals(1, trace.unfinished());
        assertEquals(
                "2 checkpoints, median 120 ms, longest 250 ms, sum 370 ms; 1 triggered, not"
                        + " completed",
                trace.summary());
    }

    @Test
    void eventsNameTheSchedulingStartEachTriggerAndCompletionAndTheFinalCheckpoint() {
        String log =
                "10:00:01.000 INFO  [c-4] CheckpointCoordinator - checkpoint is enabled, start"
                        + " schedule trigger pending checkpoint.\n"
                        + "10:00:03.000 INFO  [c-4] CheckpointCoordinator - wait checkpoint"
                        + " completed: 1\n"
                        + "10:00:03.400 INFO  [c-4] CheckpointCoordinator - pending"
                        + " checkpoint(1/1@7) notify finished!\n"
                        + "10:00:05.000 INFO  [c-4] CheckpointCoordinator - wait checkpoint"
                        + " completed: 9223372036854775807\n"
                        + "10:00:05.050 INFO  [c-4] CheckpointCoordinator - pending"
                        + " checkpoint(9223372036854775807/1@7) notify finished!\n";

        CheckpointLogTrace trace = CheckpointLogTrace.parse(log);

        List<String> events = new ArrayList<>();
        for (CheckpointLogTrace.Event e : trace.events()) {
            events.add(e.label + "@" + e.timeOfDayMillis);
        }
        assertEquals(
                Arrays.asList(
                        "scheduling@36001000",
                        "T1@36003000",
                        "C1@36003400",
                        "Tfinal@36005000",
                        "Cfinal@36005050"),
                events);
        assertEquals(Arrays.asList(400L, 50L), trace.millis());
    }

    @Test
    void aLogWithoutCheckpointsSaysSo() {
        CheckpointLogTrace trace = CheckpointLogTrace.parse("12:00:00.000 INFO  [x] Y - started\n");

        assertEquals(Collections.emptyList(), trace.millis());
        assertEquals(0, trace.unfinished());
        assertEquals("no checkpoint", trace.summary());
    }
}
