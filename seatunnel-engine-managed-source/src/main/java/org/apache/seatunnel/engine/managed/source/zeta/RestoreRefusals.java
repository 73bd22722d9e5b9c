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

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceMemberService;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceTelemetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where every refused restore (lane or capability digest mismatch) goes: counted, logged, and the
 * job failed once through its master with the refusal as the job's error.
 *
 * <p>Threading: stateless; called on the engine thread that restores a task's state.
 *
 * <p>Why a member is looked up here rather than passed in: the refusal is found inside a state
 * serializer, which the engine calls without any context. A SeaTunnel server runs one member per
 * JVM, and any member of the cluster reaches the job's master, so the first running member with the
 * Lane A service does. Without a job id (a source planned before job ids reached it) the refusal
 * still fails the restore, through the engine's own error path.
 */
final class RestoreRefusals {
    private static final Logger LOG = LoggerFactory.getLogger(RestoreRefusals.class);

    private RestoreRefusals() {}

    /** Counts, logs and reports the refusal, and returns it for the caller to throw. */
    static IllegalStateException refuse(long jobId, IllegalStateException refusal) {
        ManagedSourceTelemetry.restoreRefused();
        RuntimeObservers.restoreRefused(refusal.getMessage());
        LOG.error("Lane A refused to restore job {}: {}", jobId, refusal.getMessage());
        if (jobId != 0) {
            failJob(jobId, refusal.getMessage());
        }
        return refusal;
    }

    private static void failJob(long jobId, String reason) {
        for (HazelcastInstance instance : Hazelcast.getAllHazelcastInstances()) {
            try {
                if (!instance.getLifecycleService().isRunning()) {
                    continue;
                }
                if (ManagedSourceMemberService.of(instance).failJob(jobId, reason)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // Not a member with our service (a client), or one shutting down: try the next.
                LOG.debug("Could not report the refused restore through {}", instance, e);
            }
        }
        LOG.warn(
                "No job master of job {} was reachable; the refused restore fails through the"
                        + " engine's restore path instead",
                jobId);
    }

    /** The numeric job id of a job context's id, or 0. */
    static long jobIdOf(String id) {
        if (id == null) {
            return 0;
        }
        try {
            return Long.parseLong(id.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
