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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.seatunnel.api.common.metrics.Measurement;
import org.apache.seatunnel.engine.common.Constant;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.server.CoordinatorService;
import org.apache.seatunnel.engine.server.SeaTunnelServer;
import org.apache.seatunnel.engine.server.master.JobMaster;

/**
 * One or more real SeaTunnel Zeta 2.3.8 members in this JVM, on loopback only, with in-process job
 * submission. Meant for {@code @BeforeAll}/{@code @AfterAll} or try-with-resources (it is {@link
 * AutoCloseable}).
 *
 * <p>Threading: build, {@link Builder#start()} and {@link #close()} on the test thread; {@code
 * submit}, status, savepoint and cancel may be called from any thread once started (they delegate
 * to the master's thread-safe {@link CoordinatorService}). The members live in {@link
 * EmbeddedMembers}, their configuration in {@link EmbeddedMemberConfig}, submission in {@link
 * JobSubmissions}, and what the engine keeps of checkpoints is read by {@link
 * CheckpointInspection}.
 *
 * <p>Each instance gets its own Hazelcast cluster name and port range (give every test class a
 * distinct base port), TCP-IP join over {@code 127.0.0.1:port} with multicast and auto-detection
 * off, REST and phone-home off, and a fresh local-file checkpoint folder. {@code SEATUNNEL_HOME} is
 * one temp folder per JVM, because SeaTunnel caches it in a static the first time it is read;
 * without {@code connectors/plugin-mapping.properties} there, connectors load from the test
 * classpath (found through {@code META-INF/services}).
 */
public final class EmbeddedZeta implements AutoCloseable {

    private final String clusterName;
    private final int basePort;
    private final int memberCount;
    private final long checkpointIntervalMillis;
    private final boolean telemetry;
    private final Path workDir;
    private final Path checkpointDir;
    private final EmbeddedMembers members;
    private final JobSubmissions submissions;
    private final EmbeddedMemberConfig memberConfigs;

    private EmbeddedZeta(Builder b) {
        this.clusterName = b.clusterName;
        this.basePort = b.basePort;
        this.memberCount = b.members;
        this.checkpointIntervalMillis = b.checkpointIntervalMillis;
        this.telemetry = b.telemetry;
        try {
            this.workDir = Files.createTempDirectory("embedded-zeta-" + clusterName + "-");
            this.checkpointDir = Files.createDirectories(workDir.resolve("checkpoints"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.members = new EmbeddedMembers(clusterName, memberCount);
        this.submissions = new JobSubmissions(workDir);
        this.memberConfigs =
                new EmbeddedMemberConfig(
                        clusterName,
                        basePort,
                        memberCount,
                        b.genericOperationThreads,
                        b.slotsPerMember,
                        telemetry,
                        checkpointDir,
                        checkpointIntervalMillis,
                        b.checkpointTimeoutMillis);
    }

    /**
     * @param clusterName unique per test class, so concurrent JVMs never join each other
     * @param basePort first loopback port; members use {@code basePort .. basePort + n - 1}
     */
    public static Builder builder(String clusterName, int basePort) {
        return new Builder(clusterName, basePort);
    }

    /** Builder. Defaults: 1 member, checkpoint every 1 s, timeout 60 s. */
    public static final class Builder {
        private final String clusterName;
        private final int basePort;
        private int members = 1;
        private long checkpointIntervalMillis = 1000;
        private long checkpointTimeoutMillis = 60_000;
        private int genericOperationThreads = 16;
        // 0: dynamic slots (as many task groups as the jobs ask for).
        private int slotsPerMember;
        private boolean telemetry;

        private Builder(String clusterName, int basePort) {
            this.clusterName = clusterName;
            this.basePort = basePort;
        }

        public Builder members(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("members must be >= 1");
            }
            this.members = n;
            return this;
        }

        public Builder checkpointIntervalMillis(long millis) {
            this.checkpointIntervalMillis = millis;
            return this;
        }

        public Builder checkpointTimeoutMillis(long millis) {
            this.checkpointTimeoutMillis = millis;
            return this;
        }

        /** Hazelcast generic operation threads; the engine's own operations block, keep >= 8. */
        public Builder genericOperationThreads(int n) {
            this.genericOperationThreads = n;
            return this;
        }

        /**
         * A fixed number of slots on every member instead of dynamic slots. The engine then has to
         * spread a job's task groups over the members once one member's slots are taken, which a
         * test that needs tasks on more than one member can rely on; with dynamic slots the
         * placement may put them all on one member.
         */
        public Builder slotsPerMember(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("slotsPerMember must be >= 1");
            }
            this.slotsPerMember = n;
            return this;
        }

        /**
         * Members with Hazelcast's REST API on their own port ({@link #restPort(int)}) and the
         * engine's telemetry ({@code telemetry.metric.enabled}), as a SeaTunnel server configured
         * for Prometheus has them: {@code /hazelcast/rest/instance/metrics} serves the JVM's
         * Prometheus registry. Zeta registers its own exporters once per JVM, for the first member
         * started with telemetry; later engines in the same JVM would be served exporters of a
         * member that is gone, so use this in one test class of a test JVM only.
         */
        public Builder telemetry() {
            this.telemetry = true;
            return this;
        }

        public EmbeddedZeta start() {
            EmbeddedZeta zeta = new EmbeddedZeta(this);
            try {
                zeta.members.start(zeta.memberConfigs);
            } catch (RuntimeException | Error e) {
                zeta.close();
                throw e;
            }
            return zeta;
        }
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Waits (bounded) for the masters of jobs submitted here to finish their cleanup, then shuts
     * every member down and deletes the work folder. Idempotent.
     */
    @Override
    public void close() {
        if (!members.isEmpty()) {
            try {
                // A job reports its end state before its master stores the history; shutting
                // down in between logs HazelcastInstanceNotActiveException from that cleanup.
                await().atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(20))
                        .until(
                                () ->
                                        submissions.jobIds().stream()
                                                .allMatch(id -> jobMaster(id) == null));
            } catch (RuntimeException e) {
                // Shut down anyway.
            }
        }
        members.shutdown();
        deleteRecursively(workDir);
    }

    // ------------------------------------------------------------------ accessors

    /**
     * The port of member {@code index}'s REST API (its Hazelcast port), with {@link
     * Builder#telemetry()} only.
     */
    public int restPort(int index) {
        if (!telemetry) {
            throw new IllegalStateException("REST is off: build the engine with telemetry()");
        }
        if (index < 0 || index >= memberCount) {
            throw new IllegalArgumentException("no member " + index);
        }
        return basePort + index;
    }

    /**
     * The sum of metric {@code name} over every measurement of job {@code jobId} (every task that
     * registers it, e.g. each reader's), 0 when none has it yet.
     */
    public long jobMetricSum(long jobId, String name) {
        long sum = 0;
        for (Measurement m : coordinator().getJobMetrics(jobId).get(name)) {
            sum += ((Number) m.getValue()).longValue();
        }
        return sum;
    }

    /** How many members this engine started. */
    public int memberCount() {
        return memberCount;
    }

    public HazelcastInstanceImpl member(int index) {
        return members.get(index);
    }

    public SeaTunnelServer server(int index) {
        return serverOf(members.get(index));
    }

    public static SeaTunnelServer serverOf(HazelcastInstanceImpl member) {
        return EmbeddedMembers.serverOf(member);
    }

    /** The server of the current master member, or null while there is none. */
    public SeaTunnelServer masterServer() {
        return members.master();
    }

    public CoordinatorService coordinator() {
        SeaTunnelServer master = masterServer();
        if (master == null) {
            throw new IllegalStateException("no master member");
        }
        return master.getCoordinatorService();
    }

    /** The member's checkpoint interval ({@link Builder#checkpointIntervalMillis}). */
    public long checkpointIntervalMillis() {
        return checkpointIntervalMillis;
    }

    public Path checkpointDir() {
        return checkpointDir;
    }

    public String clusterName() {
        return clusterName;
    }

    // ------------------------------------------------------------------ jobs

    /** Submits a new job from HOCON text and returns its id once the master accepted it. */
    public long submit(String hocon) {
        long jobId =
                members.get(0).getFlakeIdGenerator(Constant.SEATUNNEL_ID_GENERATOR_NAME).newId();
        submit(jobId, hocon, false);
        return jobId;
    }

    /**
     * Submits {@code hocon} under {@code jobId}: in-process, the way the engine's own REST path
     * does (parse → logical DAG → {@link JobImmutableInformation} → {@code submitJob}). With {@code
     * restore} the job resumes from its latest savepoint or checkpoint.
     */
    public void submit(long jobId, String hocon, boolean restore) {
        submissions.submit(masterServer(), jobId, hocon, restore);
    }

    /** The current status; {@code UNKNOWABLE} for a job the master never saw. */
    public JobStatus status(long jobId) {
        return coordinator().getJobStatus(jobId);
    }

    /** Waits (bounded) until the job reaches an end state and returns it. */
    public JobStatus awaitTerminal(long jobId, Duration bound) {
        await().atMost(bound)
                .pollInterval(Duration.ofMillis(10))
                .until(() -> status(jobId).isEndState());
        return status(jobId);
    }

    /** Waits (bounded) until the job is in {@code wanted}. */
    public void awaitStatus(long jobId, JobStatus wanted, Duration bound) {
        await().atMost(bound)
                .pollInterval(Duration.ofMillis(10))
                .until(() -> status(jobId) == wanted);
    }

    /**
     * The master's completion future of a running job: completes with the final status and error
     * text. Call it after {@link #submit} returned.
     */
    public CompletableFuture<JobResult> completion(long jobId) {
        return coordinator().waitForJobComplete(jobId);
    }

    /**
     * Waits at most {@code bound} for {@code done} (the {@link #completion} of {@code jobId}) and
     * returns the job's result. A job still running at the bound fails the test with a {@link
     * HangReport} (status, Lane A readers, every thread's stack), also printed to the test's
     * output.
     *
     * @throws AssertionError if the job did not end within {@code bound}
     */
    public JobResult awaitResult(long jobId, CompletableFuture<JobResult> done, Duration bound)
            throws InterruptedException {
        try {
            return done.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            String report = HangReport.of(this, jobId);
            System.out.println("[EmbeddedZeta] job " + jobId + " did not end within " + bound);
            System.out.println(report);
            throw new AssertionError(
                    "job "
                            + jobId
                            + " did not end within "
                            + bound
                            + " ("
                            + firstLine(report)
                            + ")");
        } catch (ExecutionException e) {
            throw new IllegalStateException("the engine failed to report job " + jobId, e);
        }
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** {@code System.nanoTime()} right before the last submission of {@code jobId}. */
    public long submittedAtNanos(long jobId) {
        return submissions.submittedAtNanos(jobId);
    }

    /** Takes a savepoint; the job then ends {@code SAVEPOINT_DONE}. */
    public void savePoint(long jobId, Duration bound) throws Exception {
        coordinator().savePoint(jobId).get(bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Takes a savepoint and waits, within {@code bound} in all, until the job ended, unless the
     * engine refused it; tells whether a savepoint is there to restore. Prefer it to {@link
     * #savePoint} whenever faults may strike while the savepoint is pending: the engine's {@code
     * SAVEPOINT_DONE} then is not proof of one (see {@link
     * SavepointResult#REPORTED_BUT_NOT_TAKEN}).
     */
    public SavepointResult savePointAndAwaitEnd(long jobId, Duration bound) throws Exception {
        long deadline = System.nanoTime() + bound.toNanos();
        // Held from before the request: the master leaves the coordinator's map when the job ends.
        JobMaster master = jobMaster(jobId);
        if (master == null) {
            return SavepointResult.JOB_ENDED;
        }
        try {
            savePoint(jobId, bound);
        } catch (ExecutionException e) {
            if (!status(jobId).isEndState()) {
                return SavepointResult.REFUSED;
            }
            // It ended first; the end status below says how.
        }
        JobStatus end =
                awaitTerminal(jobId, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        if (end != JobStatus.SAVEPOINT_DONE) {
            return SavepointResult.JOB_ENDED;
        }
        if (!master.getCheckpointManager().isSavePointEnd()) {
            return SavepointResult.REPORTED_BUT_NOT_TAKEN;
        }
        return sourcesWithoutEnumeratorState(jobId).isEmpty()
                ? SavepointResult.TAKEN
                : SavepointResult.TAKEN_WITHOUT_ENUMERATOR_STATE;
    }

    /** Sources the restore point lacks an enumerator state of: {@link SavepointResult}. */
    public List<String> sourcesWithoutEnumeratorState(long jobId) throws IOException {
        return CheckpointInspection.sourcesWithoutEnumeratorState(checkpointDir, jobId);
    }

    /**
     * Skips the calling test, with the reason, when {@link #sourcesWithoutEnumeratorState} is not
     * empty: the engine cannot restore that job on either lane. Call it before the resubmission.
     */
    public void assumeRestorable(long jobId) throws IOException {
        CheckpointInspection.assumeRestorable(checkpointDir, jobId);
    }

    /**
     * Asks the master to cancel, once no checkpoint completion is under way; the job then ends
     * {@code CANCELED}. Returns once the master took the request, while the job's tasks may still
     * be winding down: see {@link #cancelAndAwaitEnd}.
     */
    public void cancel(long jobId, Duration bound) throws Exception {
        CheckpointInspection.awaitCompletions(jobMaster(jobId), jobId, bound);
        coordinator().cancelJob(jobId).get(bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Cancels and waits, within {@code bound} in all, until the job has ended (its tasks stopped),
     * so that what runs next does not share the member with it; returns the final result.
     */
    public JobResult cancelAndAwaitEnd(long jobId, Duration bound) throws Exception {
        long deadline = System.nanoTime() + bound.toNanos();
        CompletableFuture<JobResult> end = completion(jobId);
        cancel(jobId, bound);
        return end.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** The running job's master, or null once it ended. */
    public JobMaster jobMaster(long jobId) {
        return coordinator().getJobMaster(jobId);
    }

    /**
     * Ids of the checkpoints of {@code jobId} whose state the engine stored, read from the
     * local-file checkpoint folder ({@code
     * <namespace>/<jobId>/<millis>-<rand>-<pipeline>-<id>.ser}). The engine writes a file only
     * after every task acknowledged, i.e. for completed checkpoints, and deletes the folder when
     * the job ends.
     */
    public Set<Long> storedCheckpointIds(long jobId) {
        return CheckpointInspection.storedIds(checkpointDir, jobId);
    }

    /**
     * The id of the latest completed checkpoint of pipeline {@code pipelineId} of a running job, or
     * -1, read from the engine's {@code CheckpointCoordinator.latestCompletedCheckpoint} (private,
     * hence reflection).
     */
    public long latestCompletedCheckpointId(long jobId, int pipelineId) {
        return CheckpointInspection.latestCompletedId(jobMaster(jobId), pipelineId);
    }

    private static void deleteRecursively(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Best effort: temp folders.
        }
    }
}
