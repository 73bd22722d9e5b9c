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

import java.io.Serializable;
import java.util.List;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.engine.managed.source.lane.LaneDecision;

/**
 * What both lanes' wrappers share: the connector they wrap and the lane decision made for it at
 * planning. Name, boundedness, produced type and tables are the connector's on either lane; only
 * readers, enumerators and state differ.
 *
 * <p>Threading: immutable after planning; the engine calls it from its task threads.
 *
 * @param <SplitT> the split type the engine sees
 * @param <StateT> the enumerator state type the engine sees
 * @param <InnerSplitT> the connector's split type
 * @param <InnerStateT> the connector's enumerator state type
 */
abstract class LaneSource<
                T,
                SplitT extends SourceSplit,
                StateT extends Serializable,
                InnerSplitT extends SourceSplit,
                InnerStateT extends Serializable>
        implements SeaTunnelSource<T, SplitT, StateT>, SupportParallelism {
    private static final long serialVersionUID = 1L;

    protected final SeaTunnelSource<T, InnerSplitT, InnerStateT> inner;
    private final LaneDecision decision;
    // Set when the engine hands the job context to the source (at planning, carried in the plan);
    // 0 before. Restore refusals fail this job through its master.
    private long jobId;

    LaneSource(SeaTunnelSource<T, InnerSplitT, InnerStateT> inner, LaneDecision decision) {
        this.inner = inner;
        this.decision = decision;
    }

    SeaTunnelSource<T, InnerSplitT, InnerStateT> inner() {
        return inner;
    }

    /** The job this source was planned for, 0 if unknown. */
    long jobId() {
        return jobId;
    }

    LaneDecision decision() {
        return decision;
    }

    @Override
    public String getPluginName() {
        return inner.getPluginName();
    }

    @Override
    public void setJobContext(JobContext jobContext) {
        this.jobId = RestoreRefusals.jobIdOf(jobContext == null ? null : jobContext.getJobId());
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
}
