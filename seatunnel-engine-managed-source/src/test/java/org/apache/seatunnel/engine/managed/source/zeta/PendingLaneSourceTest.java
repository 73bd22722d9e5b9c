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

package org.apache.seatunnel.engine.managed.source.zeta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.junit.jupiter.api.Test;

/** Where the lane is chosen and which name the allowlist matches. */
class PendingLaneSourceTest {
    private static ManagedSourceConfig allow(boolean enabled, String job) {
        Map<String, Object> m = new HashMap<>();
        m.put("enabled", enabled);
        m.put("allowed-jobs", Arrays.asList(job));
        m.put("allowed-connectors", Arrays.asList("ManagedFake"));
        return ManagedSourceConfig.fromMap(m);
    }

    @SuppressWarnings("unchecked")
    private static SeaTunnelSource<Object, ?, ?> managedConnector() {
        SeaTunnelSource<Object, ?, ?> inner =
                mock(
                        SeaTunnelSource.class,
                        withSettings()
                                .extraInterfaces(
                                        SupportManagedSource.class, SupportParallelism.class));
        when(((SupportManagedSource) inner).managedSourceCapability())
                .thenReturn(
                        ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build());
        when(inner.getPluginName()).thenReturn("ManagedFake");
        return inner;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static PendingLaneSource<Object, ?, ?> pending(String jobNameOption) {
        PendingLaneSource p =
                (PendingLaneSource)
                        PendingLaneSource.of(
                                (SeaTunnelSource) managedConnector(), "ManagedFake", jobNameOption);
        p.setJobContext(new JobContext(42L));
        return p;
    }

    @Test
    void theAllowlistMatchesEnvJobNameBeforeTheJobNameOption() {
        PendingLaneSource<Object, ?, ?> p = pending("legacy-name");
        assertEquals("42", p.jobId(), "the job id travels from the parser's JobContext");
        assertInstanceOf(
                ManagedLaneSource.class, p.resolve(allow(true, "orders"), "orders"), "env name");
        assertInstanceOf(
                LegacyLaneSource.class,
                p.resolve(allow(true, "legacy-name"), "orders"),
                "the option is only a fallback when the job has a name");
    }

    @Test
    void aJobWithoutItsOwnNameFallsBackToTheJobNameOptionThenTheConnector() {
        assertInstanceOf(
                ManagedLaneSource.class, pending("orders").resolve(allow(true, "orders"), null));
        assertInstanceOf(
                ManagedLaneSource.class,
                pending("").resolve(allow(true, "ManagedFake"), null),
                "no option: the connector identifier");
        assertEquals("orders", PendingLaneSource.matchedName(null, "orders", "ManagedFake"));
        assertEquals("n", PendingLaneSource.matchedName("n", "orders", "ManagedFake"));
        assertEquals("ManagedFake", PendingLaneSource.matchedName(null, "", "ManagedFake"));
    }

    @Test
    void seaTunnelsDefaultJobNameIsNoName() {
        assertNull(JobFacts.realName("SeaTunnel"));
        assertNull(JobFacts.realName("SeaTunnel_Job"), "env.job.name's default");
        assertNull(JobFacts.realName(" "));
        assertEquals("orders", JobFacts.realName("orders"));
    }

    @Test
    void theKillSwitchOfTheResolvingMemberDecides() {
        LaneSource<?, ?, ?, ?, ?> b =
                assertInstanceOf(
                        LegacyLaneSource.class,
                        pending("").resolve(allow(false, "orders"), "orders"));
        assertEquals(Lane.B, b.decision().lane());
    }

    @Test
    void theChosenSourceKeepsTheJobIdARefusedRestoreFailsTheJobBy() {
        LaneSource<?, ?, ?, ?, ?> a =
                assertInstanceOf(
                        ManagedLaneSource.class,
                        pending("").resolve(allow(true, "orders"), "orders"));
        assertEquals(42L, a.jobId(), "Lane A");
        LaneSource<?, ?, ?, ?, ?> b =
                assertInstanceOf(
                        LegacyLaneSource.class,
                        pending("").resolve(allow(false, "orders"), "orders"));
        assertEquals(42L, b.jobId(), "Lane B");
    }

    @Test
    void thePendingSourceRefusesToRunUnresolved() {
        PendingLaneSource<Object, ?, ?> p = pending("");
        assertThrows(IllegalStateException.class, () -> p.createReader(null));
        assertThrows(IllegalStateException.class, p::getSplitSerializer);
        assertInstanceOf(SupportParallelism.class, p, "keeps the connector's parallelism marker");
    }
}
