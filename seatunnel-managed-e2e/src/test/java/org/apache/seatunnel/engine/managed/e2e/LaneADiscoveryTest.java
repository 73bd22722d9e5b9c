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

package org.apache.seatunnel.engine.managed.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeFaults;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A streaming enumerator that keeps discovering splits (ManagedFake's {@code
 * discovery.splits.per.second}) on Lane A, through a reader failure: the discovered splits reach
 * the readers on demand ({@code splitsAvailable}), the discovery cursor restores with the
 * checkpoint, and every row of every discovered split is committed once, with no split skipped.
 */
class LaneADiscoveryTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String JOB_NAME = "lane-a-discovery";
    private static final int RATE = 200;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(
                List.of(JOB_NAME),
                List.of(ManagedFakeSource.IDENTIFIER, ManagedFakeTestingSourceFactory.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-discovery", 24830).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @Test
    void discoveredSplitsAreReadOnceThroughAReaderFailure() throws Exception {
        String runId = "discovery";
        String faultId = "lane-a-discovery-" + System.nanoTime();
        CollectedRows rows = CollectedRows.of(runId);
        RuntimeStats.reset();
        long jobId =
                zeta.submit(
                        ManagedJobs.streamingTesting(
                                JOB_NAME,
                                "    split.count = 2\n    rows.per.split = 3\n"
                                        + "    bounded = false\n"
                                        + "    discovery.splits.per.second = "
                                        + RATE
                                        + "\n    fault.id = \""
                                        + faultId
                                        + "\"\n    fail.once.at.row = 600\n",
                                runId));
        await().atMost(BOUND).until(() -> ManagedFakeFaults.fired(faultId + "/reader"));
        int atFailure = rows.committed().size();
        await().atMost(BOUND).until(() -> RuntimeStats.readersOpened() >= 4);
        await().atMost(BOUND).until(() -> rows.committed().size() >= atFailure + 900);
        assertEquals(JobStatus.RUNNING, zeta.status(jobId));
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));

        Map<Integer, Long> perSplit = Accounting.assertEachSplitContiguousOnce(rows.committed());
        int highest = Collections.max(perSplit.keySet());
        assertTrue(highest >= 300, "splits were discovered: the highest read is " + highest);
        // Splits discovered more than two seconds before the last one read were all read: none
        // was skipped by the restored discovery cursor.
        for (int n = 0; n < highest - 2 * RATE; n++) {
            assertTrue(perSplit.containsKey(n), "split " + n + " of " + highest + " never read");
        }
        System.out.printf(
                "[LaneADiscoveryTest] %d splits read (highest %d), %d rows committed (%d at the"
                        + " failure), readers opened %d%n",
                perSplit.size(),
                highest,
                rows.committed().size(),
                atFailure,
                RuntimeStats.readersOpened());
        ManagedFakeFaults.clear(faultId);
        CollectedRows.clear(runId);
    }
}
