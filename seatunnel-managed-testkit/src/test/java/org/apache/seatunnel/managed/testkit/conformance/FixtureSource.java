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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;

/** The source of {@link FixtureReader}s with the given flaws; serializable as the engine needs. */
final class FixtureSource
        implements SeaTunnelSource<String, FixtureSplit, ArrayList<FixtureSplit>>,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    private final Set<FixtureReader.Flaw> flaws;
    private final ArrayList<FixtureSplit> splits;

    FixtureSource(Set<FixtureReader.Flaw> flaws, Collection<FixtureSplit> splits) {
        this.flaws = flaws;
        this.splits = new ArrayList<>(splits);
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return FixtureReader.CAPABILITY;
    }

    /** The fixture's readers take {@link FixtureEvent}s; UNDECLARED_EVENTS hides the serializer. */
    @Override
    public Serializer<SourceEvent> managedSourceEventSerializer() {
        return flaws.contains(FixtureReader.Flaw.UNDECLARED_EVENTS)
                ? null
                : new FixtureEvent.Codec();
    }

    @Override
    public String getPluginName() {
        return "ConformanceFixture";
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<String, FixtureSplit> createReader(SourceReader.Context context) {
        return new FixtureReader(flaws);
    }

    @Override
    public Serializer<FixtureSplit> getSplitSerializer() {
        return new FixtureSplit.Codec();
    }

    @Override
    public SourceSplitEnumerator<FixtureSplit, ArrayList<FixtureSplit>> createEnumerator(
            SourceSplitEnumerator.Context<FixtureSplit> context) {
        return restoreEnumerator(context, splits);
    }

    @Override
    public SourceSplitEnumerator<FixtureSplit, ArrayList<FixtureSplit>> restoreEnumerator(
            SourceSplitEnumerator.Context<FixtureSplit> context, ArrayList<FixtureSplit> pending) {
        List<FixtureSplit> left = new ArrayList<>(pending);
        return new SourceSplitEnumerator<>() {
            @Override
            public void open() {}

            @Override
            public void run() {}

            @Override
            public void close() {}

            @Override
            public void addSplitsBack(List<FixtureSplit> back, int subtaskId) {
                left.addAll(back);
            }

            @Override
            public int currentUnassignedSplitSize() {
                return left.size();
            }

            @Override
            public void handleSplitRequest(int subtaskId) {}

            @Override
            public void registerReader(int subtaskId) {
                context.assignSplit(subtaskId, new ArrayList<>(left));
                left.clear();
            }

            @Override
            public ArrayList<FixtureSplit> snapshotState(long checkpointId) {
                return new ArrayList<>(left);
            }

            @Override
            public void notifyCheckpointComplete(long checkpointId) {}
        };
    }

    @Override
    public Serializer<ArrayList<FixtureSplit>> getEnumeratorStateSerializer() {
        return new StateCodec();
    }

    /** Version 1: u8 1 | i32 count | count x 21 bytes of {@link FixtureSplit.Codec}. */
    private static final class StateCodec implements Serializer<ArrayList<FixtureSplit>> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(ArrayList<FixtureSplit> splits) throws IOException {
            ByteBuffer buf = ByteBuffer.allocate(5 + 21 * splits.size());
            buf.put((byte) 1).putInt(splits.size());
            for (FixtureSplit s : splits) {
                buf.put(new FixtureSplit.Codec().serialize(s));
            }
            return buf.array();
        }

        @Override
        public ArrayList<FixtureSplit> deserialize(byte[] b) throws IOException {
            if (b.length < 5 || b[0] != 1) {
                throw new IOException("bad header");
            }
            int count = ByteBuffer.wrap(b, 1, 4).getInt();
            if (count < 0 || b.length != 5 + 21L * count) {
                throw new IOException("length does not match count " + count);
            }
            ArrayList<FixtureSplit> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                out.add(
                        new FixtureSplit.Codec()
                                .deserialize(Arrays.copyOfRange(b, 5 + 21 * i, 26 + 21 * i)));
            }
            return out;
        }
    }
}
