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

import com.hazelcast.cluster.Address;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorFence;
import org.apache.seatunnel.engine.managed.source.reader.BarrierCohort;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.transport.TransportTargets;
import org.apache.seatunnel.engine.managed.source.zeta.transport.BarrierNoticeOperation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the readers of a source that checkpoint N's barrier is coming, as soon as their coordinator
 * has snapshotted N: Zeta snapshots the enumerator first and only then sends the barrier to the
 * readers, whose barrier thread then has to win the reader's checkpoint lock. A reader that knows
 * ends its turn and hands the lock over instead of re-taking it (see the reader host's handoff).
 *
 * <p>Threading: {@link #announce} on the engine thread that snapshots the coordinator; it never
 * waits: readers on this member are told directly, each other member gets one {@link
 * BarrierNoticeOperation} for all of its readers, sent without waiting for the answer.
 */
public final class BarrierAnnouncer {
    private static final Logger LOG = LoggerFactory.getLogger(BarrierAnnouncer.class);

    private final ManagedSourceMemberService service;
    private final long jobId;
    private final long sourceRuntimeId;
    private final int parallelism;
    private final CoordinatorFence<Address> fence;

    public BarrierAnnouncer(
            ManagedSourceMemberService service,
            long jobId,
            long sourceRuntimeId,
            int parallelism,
            CoordinatorFence<Address> fence) {
        this.service = service;
        this.jobId = jobId;
        this.sourceRuntimeId = sourceRuntimeId;
        this.parallelism = parallelism;
        this.fence = fence;
    }

    /** Announces checkpoint {@code checkpointId} to every reader subtask whose member is known. */
    public void announce(long checkpointId) {
        Address self = service.thisAddress();
        Map<Address, List<Integer>> remote = null;
        List<Integer> local = new ArrayList<>();
        for (int s = 0; s < parallelism; s++) {
            Address member = fence.member(s);
            if (member == null) {
                continue;
            }
            if (member.equals(self)) {
                local.add(s);
            } else {
                if (remote == null) {
                    remote = new LinkedHashMap<>();
                }
                remote.computeIfAbsent(member, a -> new ArrayList<>()).add(s);
            }
        }
        if (!local.isEmpty()) {
            announceLocally(service.targets(), jobId, sourceRuntimeId, checkpointId, ints(local));
        }
        if (remote == null) {
            return;
        }
        for (Map.Entry<Address, List<Integer>> e : remote.entrySet()) {
            int[] subtasks = ints(e.getValue());
            try {
                service.invokeWithoutWaiting(
                        new BarrierNoticeOperation(jobId, sourceRuntimeId, checkpointId, subtasks),
                        e.getKey());
            } catch (RuntimeException ex) {
                // Advisory: the reader then takes the barrier the old way, racing for the lock.
                LOG.debug(
                        "Could not announce checkpoint {} to {}: {}",
                        checkpointId,
                        e.getKey(),
                        ex.toString());
            }
        }
    }

    private static int[] ints(List<Integer> list) {
        int[] out = new int[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }

    /**
     * Announces checkpoint {@code checkpointId} to the listed reader subtasks registered on this
     * member, as one {@link BarrierCohort} when there are several.
     */
    static void announceLocally(
            TransportTargets<Address> targets,
            long jobId,
            long sourceRuntimeId,
            long checkpointId,
            int... subtasks) {
        List<ReaderMailbox> local = new ArrayList<>(subtasks.length);
        for (int s : subtasks) {
            ReaderMailbox m = targets.reader(sourceRuntimeId, s);
            if (m != null && m.jobId() == jobId) {
                local.add(m);
            }
        }
        // A lone reader has no one to wait for.
        BarrierCohort cohort = local.size() > 1 ? new BarrierCohort(checkpointId, local) : null;
        for (ReaderMailbox m : local) {
            m.announceBarrier(checkpointId, cohort);
        }
    }
}
