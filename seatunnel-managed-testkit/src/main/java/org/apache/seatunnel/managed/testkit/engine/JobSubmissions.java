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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.server.CoordinatorService;
import org.apache.seatunnel.engine.server.SeaTunnelServer;

/**
 * Submits the jobs of one {@link EmbeddedZeta} to its master in-process, from HOCON text written to
 * a job file in the engine's work folder, and remembers when each job was last submitted.
 *
 * <p>Threading: any thread; the submission times live in a concurrent map.
 */
final class JobSubmissions {
    private final Path workDir;
    private final Map<Long, Long> submitNanos = new ConcurrentHashMap<>();

    JobSubmissions(Path workDir) {
        this.workDir = workDir;
    }

    /**
     * Plans {@code hocon} as job {@code jobId} ({@link JobPlans}) and submits it to {@code
     * master}'s coordinator; returns once the master accepted it.
     */
    void submit(SeaTunnelServer master, long jobId, String hocon, boolean restore) {
        JobImmutableInformation info =
                JobPlans.plan(master, writeJobFile(jobId, hocon), jobId, restore);
        CoordinatorService coordinator = master.getCoordinatorService();
        // A job reports SAVEPOINT_DONE/FINISHED before its JobMaster leaves the coordinator's map,
        // and submitJob silently returns "already running" while it is there: a restore submitted
        // in that window never runs. Wait for the old master to be gone.
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> coordinator.getJobMaster(jobId) == null);
        submitNanos.put(jobId, System.nanoTime());
        coordinator
                .submitJob(
                        jobId,
                        master.getNodeEngine().getSerializationService().toData(info),
                        restore)
                .join();
    }

    /** {@code System.nanoTime()} right before the last submission of {@code jobId}. */
    long submittedAtNanos(long jobId) {
        Long t = submitNanos.get(jobId);
        if (t == null) {
            throw new IllegalStateException("job " + jobId + " was not submitted here");
        }
        return t;
    }

    /** The ids of every job submitted here. */
    Set<Long> jobIds() {
        return submitNanos.keySet();
    }

    private Path writeJobFile(long jobId, String hocon) {
        try {
            Path file = Files.createTempFile(workDir, "job-" + jobId + "-", ".conf");
            Files.write(file, hocon.getBytes(StandardCharsets.UTF_8));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
