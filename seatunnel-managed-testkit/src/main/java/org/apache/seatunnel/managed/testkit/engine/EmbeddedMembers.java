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

import static org.awaitility.Awaitility.await;

import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.spi.impl.NodeEngineImpl;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.seatunnel.engine.server.SeaTunnelServer;
import org.apache.seatunnel.engine.server.SeaTunnelServerStarter;

/**
 * The Hazelcast members of one {@link EmbeddedZeta}: starts them from their configurations, waits
 * until they form one cluster whose master runs an active coordinator, finds the master, and shuts
 * them down.
 *
 * <p>Threading: {@link #start} and {@link #shutdown} on the test thread that builds and closes the
 * engine; the lookups may be called from any thread (the list is copy-on-write, so a lookup racing
 * a shutdown sees the members before or after it).
 */
final class EmbeddedMembers {
    private final String clusterName;
    private final int count;
    private final List<HazelcastInstanceImpl> members = new CopyOnWriteArrayList<>();

    EmbeddedMembers(String clusterName, int count) {
        this.clusterName = clusterName;
        this.count = count;
    }

    /** Starts every member and waits (bounded) until each sees all and the master coordinates. */
    void start(EmbeddedMemberConfig configs) {
        EmbeddedMemberConfig.ensureSeaTunnelHome();
        for (int i = 0; i < count; i++) {
            members.add(
                    SeaTunnelServerStarter.createHazelcastInstance(
                            configs.forMember(i), clusterName + "-m" + i));
        }
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(this::formed);
    }

    private boolean formed() {
        for (HazelcastInstanceImpl m : members) {
            if (m.getCluster().getMembers().size() != count) {
                return false;
            }
        }
        SeaTunnelServer master = master();
        return master != null && master.getCoordinatorService().isCoordinatorActive();
    }

    boolean isEmpty() {
        return members.isEmpty();
    }

    HazelcastInstanceImpl get(int index) {
        return members.get(index);
    }

    static SeaTunnelServer serverOf(HazelcastInstanceImpl member) {
        NodeEngineImpl nodeEngine = member.node.getNodeEngine();
        return nodeEngine.getService(SeaTunnelServer.SERVICE_NAME);
    }

    /** The server of the current master member, or null while there is none. */
    SeaTunnelServer master() {
        for (HazelcastInstanceImpl m : members) {
            if (m.node.isMaster()) {
                return serverOf(m);
            }
        }
        return null;
    }

    /** Shuts every member down, the last started first, and forgets them. Idempotent. */
    void shutdown() {
        for (int i = members.size() - 1; i >= 0; i--) {
            try {
                members.get(i).shutdown();
            } catch (RuntimeException e) {
                // Keep shutting the others down; a test's own failure matters more.
            }
        }
        members.clear();
    }
}
