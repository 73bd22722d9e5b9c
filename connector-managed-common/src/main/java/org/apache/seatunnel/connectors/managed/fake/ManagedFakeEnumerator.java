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

package org.apache.seatunnel.connectors.managed.fake;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumerator;

/**
 * ManagedFake's enumerator: split {@code n} goes to subtask {@code n % parallelism} once that
 * reader registered; unassigned splits (with their offsets) are its checkpointed state. With {@code
 * source.event.run.id} it sends each registering reader a {@link ManagedFakeEvent}, which the stock
 * engine drops and Lane A delivers.
 *
 * <p>Threading: as {@link StaticSplitEnumerator}; the hooks run outside its monitor, so a held
 * snapshot never blocks an assignment.
 */
public final class ManagedFakeEnumerator extends StaticSplitEnumerator<ManagedFakeSplit> {
    private final ManagedFakeConfig config;
    private final ManagedFakeHooks hooks;

    public ManagedFakeEnumerator(
            Context<ManagedFakeSplit> context,
            ManagedFakeConfig config,
            ManagedFakeHooks hooks,
            Collection<ManagedFakeSplit> splits) {
        super(context, splits, config.bounded());
        this.config = config;
        this.hooks = hooks;
    }

    /** Every split at offset 0: a fresh job's splits. */
    public static List<ManagedFakeSplit> initialSplits(ManagedFakeConfig config) {
        List<ManagedFakeSplit> splits = new ArrayList<>(config.splitCount());
        for (int n = 0; n < config.splitCount(); n++) {
            splits.add(new ManagedFakeSplit(n, 0));
        }
        return splits;
    }

    /** The subtask that owns split {@code n}: {@code n % parallelism}. */
    public static int owner(int splitNumber, int parallelism) {
        return splitNumber % Math.max(1, parallelism);
    }

    @Override
    protected int owner(ManagedFakeSplit split, int parallelism) {
        return owner(split.splitNumber(), parallelism);
    }

    @Override
    public void registerReader(int subtaskId) {
        super.registerReader(subtaskId);
        if (!config.sourceEventRunId().isEmpty()) {
            context.sendEventToSourceReader(
                    subtaskId, new ManagedFakeEvent(config.sourceEventRunId(), subtaskId));
        }
    }

    @Override
    public ArrayList<ManagedFakeSplit> snapshotState(long checkpointId) throws Exception {
        hooks.enumeratorSnapshot(checkpointId);
        return super.snapshotState(checkpointId);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        hooks.enumeratorCheckpointComplete(checkpointId);
    }
}
