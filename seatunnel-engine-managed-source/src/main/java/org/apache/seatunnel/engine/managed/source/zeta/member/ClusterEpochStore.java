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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEpochs;
import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The high-water marks of coordinator epochs in a cluster map ({@value #MAP_NAME}), keyed by job
 * and source runtime, so a coordinator's epoch outgrows every earlier one of its source wherever
 * the engine restarts it. The map holds one small entry per source of a job that ran Lane A; once
 * it holds more than {@value #SWEEP_ABOVE} entries, an advance removes those of jobs the engine no
 * longer runs (their attempts are gone, so their marks fence nothing).
 *
 * <p>Threading: any thread but Hazelcast operation and IO threads: an advance is one blocking map
 * update (the engine calls it when it creates or restores an enumerator, on its task threads).
 */
final class ClusterEpochStore implements CoordinatorEpochs.Store {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterEpochStore.class);

    static final String MAP_NAME = "managed-source-coordinator-epochs";

    /** Entries kept before entries of ended jobs are swept. */
    static final int SWEEP_ABOVE = 1024;

    private final HazelcastInstance hz;

    ClusterEpochStore(HazelcastInstance hz) {
        this.hz = Objects.requireNonNull(hz, "hz");
    }

    @Override
    public long advance(long jobId, long sourceRuntimeId, long floor) {
        IMap<String, Long> marks = hz.getMap(MAP_NAME);
        Long next =
                marks.compute(
                        jobId + "/" + sourceRuntimeId,
                        (k, v) -> Math.max(v == null ? 0L : v, floor) + 1);
        if (marks.size() > SWEEP_ABOVE) {
            sweep(marks);
        }
        return next;
    }

    private void sweep(IMap<String, Long> marks) {
        try {
            IMap<Long, ?> running = hz.getMap(EngineBinding.running().runningJobMapName());
            List<String> ended = new ArrayList<>();
            for (String key : marks.keySet()) {
                long job = Long.parseLong(key.substring(0, key.indexOf('/')));
                if (!running.containsKey(job)) {
                    ended.add(key);
                }
            }
            for (String key : ended) {
                marks.remove(key);
            }
            LOG.info(
                    "Removed the coordinator epoch marks of {} ended Lane A sources", ended.size());
        } catch (RuntimeException e) {
            LOG.warn("Could not sweep the coordinator epoch marks", e);
        }
    }
}
