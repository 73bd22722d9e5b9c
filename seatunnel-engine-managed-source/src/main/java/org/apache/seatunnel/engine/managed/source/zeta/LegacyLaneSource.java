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

import java.io.IOException;
import java.io.Serializable;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.engine.managed.source.lane.LaneDecision;

/**
 * Lane B for a connector named through the managed factory: every call goes straight to the
 * connector, on the engine's own threads, under its checkpoint lock, with the connector's own state
 * bytes — exactly today's behaviour (invariant 13). The only addition is on restore: state bytes
 * written by Lane A are recognised and refused with an operator-readable reason instead of being
 * handed to the connector's deserializer.
 *
 * <p>Threading: as the wrapped source.
 */
final class LegacyLaneSource<T, SplitT extends SourceSplit, StateT extends Serializable>
        extends LaneSource<T, SplitT, StateT, SplitT, StateT> {
    private static final long serialVersionUID = 1L;

    LegacyLaneSource(SeaTunnelSource<T, SplitT, StateT> inner, LaneDecision decision) {
        super(inner, decision);
    }

    @Override
    public SourceReader<T, SplitT> createReader(SourceReader.Context readerContext)
            throws Exception {
        return inner.createReader(readerContext);
    }

    @Override
    public Serializer<SplitT> getSplitSerializer() {
        return new Guarded<>(inner.getSplitSerializer(), "split", jobId());
    }

    @Override
    public SourceSplitEnumerator<SplitT, StateT> createEnumerator(
            SourceSplitEnumerator.Context<SplitT> enumeratorContext) throws Exception {
        LaneMetric.register(enumeratorContext.getMetricsContext(), decision());
        return inner.createEnumerator(enumeratorContext);
    }

    @Override
    public SourceSplitEnumerator<SplitT, StateT> restoreEnumerator(
            SourceSplitEnumerator.Context<SplitT> enumeratorContext, StateT checkpointState)
            throws Exception {
        LaneMetric.register(enumeratorContext.getMetricsContext(), decision());
        return inner.restoreEnumerator(enumeratorContext, checkpointState);
    }

    @Override
    public Serializer<StateT> getEnumeratorStateSerializer() {
        return new Guarded<>(inner.getEnumeratorStateSerializer(), "enumerator state", jobId());
    }

    /** Passes bytes through unchanged; refuses Lane A bytes on the way back in. */
    private static final class Guarded<V> implements Serializer<V> {
        private static final long serialVersionUID = 1L;
        private final Serializer<V> delegate;
        private final String what;
        private final long jobId;

        Guarded(Serializer<V> delegate, String what, long jobId) {
            this.delegate = delegate;
            this.what = what;
            this.jobId = jobId;
        }

        @Override
        public byte[] serialize(V obj) throws IOException {
            return delegate.serialize(obj);
        }

        @Override
        public V deserialize(byte[] serialized) throws IOException {
            if (ManagedSplitSerializer.looksManaged(serialized)
                    || ManagedEnumeratorStateSerializer.looksManaged(serialized)) {
                throw RestoreRefusals.refuse(
                        jobId,
                        new IllegalStateException(
                                "Refusing to restore: this "
                                        + what
                                        + " was checkpointed on Lane A but this deployment was planned on"
                                        + " Lane B. Running tasks never switch lane; restore with Lane A"
                                        + " enabled and allowlisted for this job, or start fresh."));
            }
            return delegate.deserialize(serialized);
        }
    }
}
