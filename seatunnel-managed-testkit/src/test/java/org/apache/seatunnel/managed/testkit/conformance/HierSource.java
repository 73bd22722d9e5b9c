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

package org.apache.seatunnel.managed.testkit.conformance;

import java.io.Serializable;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;

/**
 * A source whose class comes from one code source and its superclass {@link HierBase} from another
 * (a test-classes source extending a main-classes one); everything else it delegates through SPI
 * types only. Immutable.
 */
public class HierSource<T, S extends SourceSplit, E extends Serializable> extends HierBase
        implements SeaTunnelSource<T, S, E> {
    private static final long serialVersionUID = 1L;

    private final SeaTunnelSource<T, S, E> delegate;

    public HierSource(SeaTunnelSource<T, S, E> delegate) {
        this.delegate = delegate;
    }

    @Override
    public String getPluginName() {
        return delegate.getPluginName();
    }

    @Override
    public Boundedness getBoundedness() {
        return delegate.getBoundedness();
    }

    @Override
    public SourceReader<T, S> createReader(SourceReader.Context context) throws Exception {
        return delegate.createReader(context);
    }

    @Override
    public Serializer<S> getSplitSerializer() {
        return delegate.getSplitSerializer();
    }

    @Override
    public SourceSplitEnumerator<S, E> createEnumerator(SourceSplitEnumerator.Context<S> context)
            throws Exception {
        return delegate.createEnumerator(context);
    }

    @Override
    public SourceSplitEnumerator<S, E> restoreEnumerator(
            SourceSplitEnumerator.Context<S> context, E state) throws Exception {
        return delegate.restoreEnumerator(context, state);
    }

    @Override
    public Serializer<E> getEnumeratorStateSerializer() {
        return delegate.getEnumeratorStateSerializer();
    }
}
