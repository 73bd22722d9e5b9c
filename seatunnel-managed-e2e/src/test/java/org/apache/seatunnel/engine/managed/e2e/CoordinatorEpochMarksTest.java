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

import com.hazelcast.map.IMap;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEpochs;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceMemberService;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cluster map of coordinator epoch marks on a real Zeta member: a running Lane A job's
 * coordinator leaves its mark there, a later coordinator of the same source gets a later epoch, and
 * past the map's bound (1,024 entries) the marks of jobs the engine no longer runs are swept while
 * the running job's mark stays.
 */
class CoordinatorEpochMarksTest {
    private static final Duration BOUND = Duration.ofSeconds(40);
    private static final String JOB_NAME = "lane-a-epoch-marks";
    private static final String MAP_NAME = "managed-source-coordinator-epochs";
    private static final int SWEEP_ABOVE = 1024;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(List.of(JOB_NAME), List.of(ManagedFakeSource.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-epoch-marks", 24820).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @Test
    void marksOfEndedJobsAreSweptAtTheBoundAndARunningJobsMarkStays() throws Exception {
        RuntimeStats.reset();
        long jobId =
                zeta.submit(
                        ManagedJobs.streaming(
                                JOB_NAME,
                                "    split.count = 2\n    bounded = false\n"
                                        + "    rows.per.second = 100\n",
                                "epoch-marks"));
        await().atMost(BOUND).until(() -> !RuntimeStats.coordinatorEpochs().isEmpty());
        IMap<String, Long> marks = zeta.member(0).getMap(MAP_NAME);
        List<String> mine = keysOf(marks, jobId);
        assertEquals(1, mine.size(), "one mark per source of the job: " + mine);
        long opened = RuntimeStats.coordinatorEpochs().get(0);
        assertEquals(opened, marks.get(mine.get(0)).longValue());

        CoordinatorEpochs.Store store = ManagedSourceMemberService.of(zeta.member(0)).epochStore();
        long source = Long.parseLong(mine.get(0).substring(mine.get(0).indexOf('/') + 1));
        long next = CoordinatorEpochs.next(store, jobId, source, 0);
        assertTrue(next > opened, next + " after " + opened);

        // Marks of jobs that never ran here (ids no running job has) fill the map to its bound.
        long ended = jobId + 1_000_000;
        for (int i = 0; marks.size() < SWEEP_ABOVE; i++) {
            store.advance(ended + i, 1, 0);
        }
        assertEquals(SWEEP_ABOVE, marks.size(), "not swept at the bound");
        store.advance(ended - 1, 1, 0); // one past it: the sweep runs
        assertEquals(
                List.of(mine.get(0)),
                marks.keySet().stream().sorted().collect(Collectors.toList()),
                "only the running job's mark is left");
        assertEquals(next, marks.get(mine.get(0)).longValue());

        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
    }

    private static List<String> keysOf(IMap<String, Long> marks, long jobId) {
        return marks.keySet().stream()
                .filter(k -> k.startsWith(jobId + "/"))
                .collect(Collectors.toList());
    }
}
