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

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.RestEndpointGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.common.config.Common;
import org.apache.seatunnel.engine.common.config.EngineConfig;
import org.apache.seatunnel.engine.common.config.SeaTunnelConfig;
import org.apache.seatunnel.engine.common.config.server.CheckpointConfig;
import org.apache.seatunnel.engine.common.config.server.CheckpointStorageConfig;
import org.apache.seatunnel.engine.common.config.server.SlotServiceConfig;
import org.apache.seatunnel.engine.common.config.server.TelemetryConfig;
import org.apache.seatunnel.engine.common.config.server.TelemetryMetricConfig;
import org.apache.seatunnel.engine.common.runtime.ExecutionMode;

/**
 * The configuration of each member of an {@link EmbeddedZeta}: loopback TCP/IP join on its own
 * cluster name and ports, local-file checkpoints in the engine's work folder, the checkpoint
 * interval and timeout, slots and generic operation threads, and, when asked, the REST and
 * telemetry endpoints; and the one {@code SEATUNNEL_HOME} of the JVM.
 *
 * <p>Threading: immutable; {@link #ensureSeaTunnelHome} may be called from any thread.
 */
final class EmbeddedMemberConfig {
    private static final Object HOME_LOCK = new Object();
    private static Path seatunnelHome;

    private final String clusterName;
    private final int basePort;
    private final int memberCount;
    private final int genericOperationThreads;
    private final int slotsPerMember;
    private final boolean telemetry;
    private final Path checkpointDir;
    private final long checkpointIntervalMillis;
    private final long checkpointTimeoutMillis;

    EmbeddedMemberConfig(
            String clusterName,
            int basePort,
            int memberCount,
            int genericOperationThreads,
            int slotsPerMember,
            boolean telemetry,
            Path checkpointDir,
            long checkpointIntervalMillis,
            long checkpointTimeoutMillis) {
        this.clusterName = clusterName;
        this.basePort = basePort;
        this.memberCount = memberCount;
        this.genericOperationThreads = genericOperationThreads;
        this.slotsPerMember = slotsPerMember;
        this.telemetry = telemetry;
        this.checkpointDir = checkpointDir;
        this.checkpointIntervalMillis = checkpointIntervalMillis;
        this.checkpointTimeoutMillis = checkpointTimeoutMillis;
    }

    /** The configuration of member {@code index}. */
    SeaTunnelConfig forMember(int index) {
        SeaTunnelConfig config = new SeaTunnelConfig();
        Config hz = config.getHazelcastConfig();
        hz.setClusterName(clusterName);
        hz.setProperty("hazelcast.phone.home.enabled", "false");
        hz.setProperty("hazelcast.socket.bind.any", "false");
        hz.setProperty("hazelcast.wait.seconds.before.join", "1");
        hz.setProperty("hazelcast.max.no.heartbeat.seconds", "30");
        hz.setProperty("hazelcast.operation.generic.thread.count", "" + genericOperationThreads);
        hz.setProperty("hazelcast.logging.type", "slf4j");
        NetworkConfig net = hz.getNetworkConfig();
        net.setPort(basePort + index);
        net.setPortAutoIncrement(false);
        net.getInterfaces().setEnabled(true).setInterfaces(Collections.singletonList("127.0.0.1"));
        if (telemetry) {
            // The groups a SeaTunnel server enables; the telemetry paths are read-only.
            net.getRestApiConfig()
                    .setEnabled(true)
                    .enableGroups(
                            RestEndpointGroup.CLUSTER_READ,
                            RestEndpointGroup.CLUSTER_WRITE,
                            RestEndpointGroup.DATA);
        } else {
            net.getRestApiConfig().setEnabled(false);
        }
        JoinConfig join = net.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        List<String> peers = new ArrayList<>();
        for (int i = 0; i < memberCount; i++) {
            // One entry per member: the engine's config rejects port ranges.
            peers.add("127.0.0.1:" + (basePort + i));
        }
        join.getTcpIpConfig().setMembers(peers);

        EngineConfig engine = config.getEngineConfig();
        engine.setMode(memberCount == 1 ? ExecutionMode.LOCAL : ExecutionMode.CLUSTER);
        engine.setBackupCount(memberCount == 1 ? 0 : 1);
        engine.setPrintExecutionInfoInterval(3600);
        engine.setPrintJobMetricsInfoInterval(3600);
        // Fresh objects: the option defaults are shared static instances across EngineConfigs.
        SlotServiceConfig slots = new SlotServiceConfig();
        slots.setDynamicSlot(slotsPerMember == 0);
        if (slotsPerMember > 0) {
            slots.setSlotNum(slotsPerMember);
        }
        engine.setSlotServiceConfig(slots);
        CheckpointStorageConfig storage = new CheckpointStorageConfig();
        storage.setStorage("localfile");
        // Keep every checkpoint file while the job runs, so tests can count completed ones.
        storage.setMaxRetainedCheckpoints(1000);
        Map<String, String> plugin = new HashMap<>();
        plugin.put("namespace", checkpointDir.toAbsolutePath() + "/");
        storage.setStoragePluginConfig(plugin);
        CheckpointConfig checkpoint = new CheckpointConfig();
        checkpoint.setCheckpointInterval(checkpointIntervalMillis);
        checkpoint.setCheckpointTimeout(checkpointTimeoutMillis);
        checkpoint.setStorage(storage);
        engine.setCheckpointConfig(checkpoint);
        if (telemetry) {
            TelemetryMetricConfig metric = new TelemetryMetricConfig();
            metric.setEnabled(true);
            TelemetryConfig telemetryConfig = new TelemetryConfig();
            telemetryConfig.setMetric(metric);
            engine.setTelemetryConfig(telemetryConfig);
        }
        return config;
    }

    /**
     * SeaTunnel reads {@code SEATUNNEL_HOME} into statics on first use, so it is one temp folder
     * per JVM. Without {@code connectors/plugin-mapping.properties} there, connectors load from the
     * application classpath.
     */
    static void ensureSeaTunnelHome() {
        synchronized (HOME_LOCK) {
            if (seatunnelHome != null) {
                return;
            }
            try {
                seatunnelHome = Files.createTempDirectory("seatunnel-home-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            String home = seatunnelHome.toAbsolutePath().toString();
            System.setProperty("SEATUNNEL_HOME", home);
            System.setProperty("seatunnel.home", home);
            Common.setSeaTunnelHome(home);
        }
    }
}
