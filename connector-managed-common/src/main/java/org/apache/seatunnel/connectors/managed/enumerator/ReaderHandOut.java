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

package org.apache.seatunnel.connectors.managed.enumerator;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;

/**
 * Which readers a {@link DiscoveringSplitEnumerator} may hand splits to and has told no more will
 * come, and the hand-out itself: on Lane A the runtime is told a reader has splits again and asks
 * for them; on Lane B a registered reader is given all of its waiting splits.
 *
 * <p>Threading: not thread-safe; every call is made under the enumerator's turn (its one monitor,
 * or the coordinator loop on Lane A).
 */
final class ReaderHandOut<SplitT extends SourceSplit> {
    private final ManagedEnumeratorContext<SplitT> context;
    private final OwnerQueues<SplitT> pending;
    private final boolean demand;
    private final TreeSet<Integer> registered = new TreeSet<>();
    // Readers told no more splits since they last registered.
    private final Set<Integer> told = new HashSet<>();

    ReaderHandOut(
            ManagedEnumeratorContext<SplitT> context, OwnerQueues<SplitT> pending, boolean demand) {
        this.context = context;
        this.pending = pending;
        this.demand = demand;
    }

    /** A reader (re)registered: it may be handed splits and told no more splits again. */
    void register(int subtask) {
        registered.add(subtask);
        told.remove(subtask);
    }

    boolean isRegistered(int subtask) {
        return registered.contains(subtask);
    }

    /** The registered readers, a copy so the caller may hand out while iterating. */
    List<Integer> registeredReaders() {
        return new ArrayList<>(registered);
    }

    /** Lane A: up to {@code maxSplits} of the reader's own splits, unless it was told no more. */
    void handOutOnDemand(int subtask, int maxSplits) {
        if (!told.contains(subtask)) {
            pending.handOut(subtask, maxSplits, batch -> context.assignSplit(subtask, batch));
        }
    }

    /** Tells {@code owner}'s reader (or the runtime) that it has splits again. */
    void offer(int owner) {
        if (!registered.contains(owner) || told.contains(owner)) {
            return;
        }
        if (demand) {
            context.splitsAvailable(owner);
        } else {
            handOutAll(owner);
        }
    }

    /** Lane B: every waiting split of a registered, not yet told reader. */
    void handOutAll(int subtask) {
        if (demand || !registered.contains(subtask) || told.contains(subtask)) {
            return;
        }
        pending.handOut(subtask, Integer.MAX_VALUE, batch -> context.assignSplit(subtask, batch));
    }

    /** When discovery is finished and nothing waits for a registered reader: no more will come. */
    void signalIfDone(int subtask, boolean finished) {
        if (finished
                && registered.contains(subtask)
                && !told.contains(subtask)
                && pending.isEmpty(subtask)) {
            told.add(subtask);
            context.signalNoMoreSplits(subtask);
        }
    }
}
