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

import java.io.ObjectStreamException;
import java.io.Serializable;
import java.util.List;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.engine.managed.source.lane.LaneDecision;
import org.apache.seatunnel.engine.managed.source.lane.LaneSelector;
import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineVersion;
import org.apache.seatunnel.engine.managed.source.zeta.member.InvalidManagedSourceSettings;
import org.apache.seatunnel.engine.managed.source.zeta.member.OperatorSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A managed connector whose lane is not chosen yet: what the job parser gets, wherever it runs.
 *
 * <p>Threading: immutable apart from the job id the parser sets once; the engine calls it from the
 * parsing thread only.
 *
 * <p>Why: SeaTunnel's Java client parses the job and builds the plan in the client's JVM, whose
 * {@code seatunnel.yaml} (if any) is not the cluster's. So the parser's source carries only what
 * the lane needs — the connector, the {@code job-name} fallback and the job id — and the lane is
 * chosen when the plan is first deserialized on a member ({@link #readResolve}): on the master, as
 * {@code JobMaster.init} reads the logical plan, before any task is built. The master then ships
 * the chosen {@link ManagedLaneSource} or Lane B source inside every task, so readers and the
 * enumerator run on the lane the master's settings chose. The same happens when a new master takes
 * a job over and when a job is resubmitted to restore from a savepoint: those are the moments a
 * changed kill switch or allowlist takes effect (a changed lane then fails the restore, as
 * designed).
 */
class PendingLaneSource<T, SplitT extends SourceSplit, StateT extends Serializable>
        implements SeaTunnelSource<T, SplitT, StateT> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(PendingLaneSource.class);
    // Per JVM: each member logs a job's decision once, however often it deserializes the plan.
    private static final LaneDecisionLog DECISIONS_LOGGED = new LaneDecisionLog(4096);

    private final SeaTunnelSource<T, SplitT, StateT> inner;
    private final String connector;
    private final String jobNameOption;
    private String jobId;
    private JobContext jobContext;

    PendingLaneSource(
            SeaTunnelSource<T, SplitT, StateT> inner, String connector, String jobNameOption) {
        this.inner = inner;
        this.connector = connector;
        this.jobNameOption = jobNameOption == null ? "" : jobNameOption;
    }

    static <T, SplitT extends SourceSplit, StateT extends Serializable>
            SeaTunnelSource<T, SplitT, StateT> of(
                    SeaTunnelSource<T, SplitT, StateT> inner,
                    String connector,
                    String jobNameOption) {
        return inner instanceof SupportParallelism
                ? new Parallel<>(inner, connector, jobNameOption)
                : new PendingLaneSource<>(inner, connector, jobNameOption);
    }

    /** Chooses the lane in the JVM that deserializes the plan (a member); see the class comment. */
    protected Object readResolve() throws ObjectStreamException {
        JobFacts facts = JobFacts.of(jobId);
        return resolve(
                settingsFor(matchedName(facts.envJobName(), jobNameOption, connector)),
                facts.envJobName(),
                checkpointsEnabled(facts.checkpointsEnabled()),
                facts.checkpointIntervalMillis());
    }

    /**
     * The operator's settings for planning {@code job}. A section that does not load fails the
     * planning of a job it might put on Lane A; a job it could never put there runs on Lane B as
     * the section says (see {@link InvalidManagedSourceSettings}), with a warning.
     */
    static ManagedSourceConfig settingsFor(String job) {
        try {
            return OperatorSettings.current();
        } catch (InvalidManagedSourceSettings e) {
            if (!e.neverLaneA(job)) {
                throw e;
            }
            if (DECISIONS_LOGGED.isNew(job, "invalid managed-source section", e.getMessage())) {
                LOG.warn(
                        "Job {} runs on Lane B: the managed-source section does not enable Lane A"
                                + " for it, and it is invalid: {}",
                        job,
                        e.getMessage());
            }
            return e.laneBSettings();
        }
    }

    /**
     * The source for the chosen lane. The allowlist matches {@code envJobName} (the job's {@code
     * env.job.name}) when the job has one; else the {@code job-name} option; else the connector.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    SeaTunnelSource<T, ?, ?> resolve(ManagedSourceConfig settings, String envJobName) {
        return resolve(settings, envJobName, true, 0);
    }

    /**
     * Whether the job checkpoints periodically: what its plan says, else Zeta's rule on the job
     * mode alone (a BATCH job without a known {@code checkpoint.interval} does not). Lane A's
     * tracker collects an assignment once applied when there are no checkpoints to prove it
     * against; waiting for checkpoints that never come would stall at the tracker's bound.
     */
    private boolean checkpointsEnabled(Boolean fromPlan) {
        if (fromPlan != null) {
            return fromPlan;
        }
        boolean batch =
                jobContext != null
                        && jobContext.getJobMode()
                                == org.apache.seatunnel.common.constants.JobMode.BATCH;
        if (batch) {
            LOG.warn(
                    "The plan of BATCH job {} could not be read; its Lane A coordinator assumes it"
                            + " takes no periodic checkpoints (Zeta's default without"
                            + " env.checkpoint.interval)",
                    jobId);
        }
        return !batch;
    }

    /**
     * @param checkpointIntervalMillis the job's checkpoint interval from its plan, 0 if unknown:
     *     Lane A's readers step aside for the engine's checkpoint work when the next is due
     */
    SeaTunnelSource<T, ?, ?> resolve(
            ManagedSourceConfig settings,
            String envJobName,
            boolean checkpointsEnabled,
            long checkpointIntervalMillis) {
        String job = matchedName(envJobName, jobNameOption, connector);
        if (envJobName != null && !jobNameOption.isEmpty() && !envJobName.equals(jobNameOption)) {
            LOG.warn(
                    "Job {} sets env.job.name '{}' and the Managed source's job-name '{}': the"
                            + " allowlist matches env.job.name",
                    jobId,
                    envJobName,
                    jobNameOption);
        }
        ManagedSourceCapability cap =
                inner instanceof SupportManagedSource
                        ? ((SupportManagedSource) inner).managedSourceCapability()
                        : null;
        LaneDecision decision =
                LaneSelector.decide(settings, job, connector, cap, EngineVersion.refusal());
        if (DECISIONS_LOGGED.isNew(String.valueOf(jobId), connector, decision.toString())) {
            LOG.info("Source {} of job {} ({}) planned on {}", connector, jobId, job, decision);
        } else {
            LOG.debug("Source {} of job {} ({}) planned on {}", connector, jobId, job, decision);
        }
        SeaTunnelSource<T, ?, ?> chosen;
        if (decision.lane() == Lane.A) {
            chosen =
                    new ManagedLaneSource(
                            inner,
                            decision,
                            settings,
                            job,
                            checkpointsEnabled,
                            checkpointsEnabled ? checkpointIntervalMillis : 0);
        } else if (inner instanceof SupportParallelism) {
            chosen = new LegacyLaneSource(inner, decision);
        } else {
            return inner;
        }
        // The engine set the job context on this pending source before the plan was shipped; the
        // chosen source needs it too (a refused restore fails the job through its id).
        if (jobContext != null) {
            chosen.setJobContext(jobContext);
        }
        return chosen;
    }

    /**
     * The name the allowlist matches: env.job.name, else the job-name option, else the connector.
     */
    static String matchedName(String envJobName, String jobNameOption, String connector) {
        if (envJobName != null) {
            return envJobName;
        }
        return jobNameOption == null || jobNameOption.isEmpty() ? connector : jobNameOption;
    }

    String jobId() {
        return jobId;
    }

    @Override
    public String getPluginName() {
        return inner.getPluginName();
    }

    @Override
    public void setJobContext(JobContext jobContext) {
        this.jobId = jobContext == null ? null : jobContext.getJobId();
        this.jobContext = jobContext;
        inner.setJobContext(jobContext);
    }

    @Override
    public Boundedness getBoundedness() {
        return inner.getBoundedness();
    }

    @Override
    public SeaTunnelDataType<T> getProducedType() {
        return inner.getProducedType();
    }

    @Override
    public List<CatalogTable> getProducedCatalogTables() {
        return inner.getProducedCatalogTables();
    }

    @Override
    public SourceReader<T, SplitT> createReader(SourceReader.Context readerContext) {
        throw notPlanned();
    }

    @Override
    public SourceSplitEnumerator<SplitT, StateT> createEnumerator(
            SourceSplitEnumerator.Context<SplitT> enumeratorContext) {
        throw notPlanned();
    }

    @Override
    public SourceSplitEnumerator<SplitT, StateT> restoreEnumerator(
            SourceSplitEnumerator.Context<SplitT> enumeratorContext, StateT checkpointState) {
        throw notPlanned();
    }

    @Override
    public Serializer<SplitT> getSplitSerializer() {
        throw notPlanned();
    }

    @Override
    public Serializer<StateT> getEnumeratorStateSerializer() {
        throw notPlanned();
    }

    private IllegalStateException notPlanned() {
        return new IllegalStateException(
                "The lane of managed connector "
                        + connector
                        + " is chosen when a member deserializes the job plan; this copy was never"
                        + " serialized (run the job through the engine)");
    }

    /** The same, for connectors that support parallelism (a marker the engine checks). */
    static final class Parallel<T, SplitT extends SourceSplit, StateT extends Serializable>
            extends PendingLaneSource<T, SplitT, StateT> implements SupportParallelism {
        private static final long serialVersionUID = 1L;

        Parallel(SeaTunnelSource<T, SplitT, StateT> inner, String connector, String jobNameOption) {
            super(inner, connector, jobNameOption);
        }
    }
}
