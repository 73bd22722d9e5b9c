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
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;

/**
 * An enumerator for a split list known up front (a range, a fixed file list, a table's chunks):
 * each split goes to one owner subtask once that reader registered; splits handed back by a failed
 * or restored reader go out again; its checkpointed state is the list of splits not yet assigned. A
 * bounded source tells each reader no more splits will come once it got all of its own.
 *
 * <p>How splits leave depends on the lane. On Lane A the runtime asks for them ({@link
 * SupportSplitDemand}): each reader gets what its mailbox can take now, so a list of a million
 * splits stays here, in this enumerator's own compact queues, instead of becoming a million
 * assignments in the coordinator. On Lane B (the stock engine) every reader gets all of its splits
 * when it registers, as before.
 *
 * <p>Threading: on Lane A the runtime calls every method on the coordinator loop, one at a time; on
 * Lane B the engine calls them from several threads at once, so all state is guarded by one monitor
 * held only for short sections (an assignment on Lane B is a remote call made while holding it, so
 * a snapshot sees a split either pending or assigned, never both).
 */
public class StaticSplitEnumerator<SplitT extends SourceSplit>
        implements SourceSplitEnumerator<SplitT, ArrayList<SplitT>>, SupportSplitDemand {

    protected final Context<SplitT> context;
    private final boolean bounded;
    private final boolean onDemand;

    private final Object lock = new Object();
    // guarded by lock: the splits not yet assigned, per owner subtask in arrival order
    private final OwnerQueues<SplitT> pending;
    // guarded by lock
    private final TreeSet<Integer> registered = new TreeSet<>();

    /**
     * @param splits the splits to assign: all of them for a fresh start, the checkpointed pending
     *     ones on restore
     * @param bounded whether readers are told no more splits will come once they got theirs
     */
    public StaticSplitEnumerator(
            Context<SplitT> context, Collection<SplitT> splits, boolean bounded) {
        this.context = context;
        this.bounded = bounded;
        this.onDemand =
                context instanceof ManagedEnumeratorContext
                        && ((ManagedEnumeratorContext<?>) context).splitDemand();
        this.pending = new OwnerQueues<>(splits, this::owner, context::currentParallelism);
    }

    /**
     * The subtask that reads {@code split}: by default a stable hash of its id. Must depend only on
     * the split and the parallelism, so a split handed back goes to the same reader again.
     */
    protected int owner(SplitT split, int parallelism) {
        return (split.splitId().hashCode() & Integer.MAX_VALUE) % Math.max(1, parallelism);
    }

    @Override
    public void open() {}

    /** Hands out what registered readers are owed and returns at once (the engine needs that). */
    @Override
    public void run() {
        synchronized (lock) {
            if (!onDemand) {
                for (int subtask : new ArrayList<>(registered)) {
                    assignAllTo(subtask);
                }
            }
        }
    }

    @Override
    public void close() {}

    @Override
    public void addSplitsBack(List<SplitT> splits, int subtaskId) {
        synchronized (lock) {
            for (SplitT s : splits) {
                pending.addLast(s);
            }
            if (!onDemand) {
                for (int subtask : new ArrayList<>(registered)) {
                    assignAllTo(subtask);
                }
            }
        }
    }

    @Override
    public int currentUnassignedSplitSize() {
        synchronized (lock) {
            return pending.size();
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId) {
        synchronized (lock) {
            // On demand the runtime answers a request by asking for splits (handleSplitDemand).
            if (!onDemand && registered.contains(subtaskId)) {
                assignAllTo(subtaskId);
            }
        }
    }

    @Override
    public void registerReader(int subtaskId) {
        synchronized (lock) {
            registered.add(subtaskId);
            if (onDemand) {
                signalIfDone(subtaskId);
            } else {
                assignAllTo(subtaskId);
                if (bounded) {
                    context.signalNoMoreSplits(subtaskId);
                }
            }
        }
    }

    /** Lane A: up to {@code maxSplits} of the reader's own splits, then no-more-splits if done. */
    @Override
    public void handleSplitDemand(int subtaskId, int maxSplits) {
        synchronized (lock) {
            pending.handOut(subtaskId, maxSplits, batch -> context.assignSplit(subtaskId, batch));
            signalIfDone(subtaskId);
        }
    }

    /**
     * Splits found after the start, by an unbounded source's discovery (new partitions, new files):
     * each joins its owner's queue and is checkpointed with the rest until assigned. On Lane B a
     * registered owner gets them at once; on Lane A the runtime is told their owners have splits
     * again ({@link ManagedEnumeratorContext#splitsAvailable}) and asks for them as readers have
     * room. Any thread; not for a bounded source, whose readers may already have been told no more
     * splits will come.
     */
    protected void addSplits(Collection<SplitT> splits) {
        if (bounded) {
            throw new IllegalStateException("a bounded source has all its splits at the start");
        }
        TreeSet<Integer> owners = new TreeSet<>();
        synchronized (lock) {
            for (SplitT s : splits) {
                owners.add(pending.addLast(s));
            }
            if (!onDemand) {
                for (int owner : owners) {
                    if (registered.contains(owner)) {
                        assignAllTo(owner);
                    }
                }
            }
        }
        if (onDemand) {
            for (int owner : owners) {
                ((ManagedEnumeratorContext<?>) context).splitsAvailable(owner);
            }
        }
    }

    @Override
    public ArrayList<SplitT> snapshotState(long checkpointId) throws Exception {
        synchronized (lock) {
            return new ArrayList<>(pending.snapshot());
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {}

    /** Under lock: bounded and nothing left for {@code subtask}: no more will come. */
    private void signalIfDone(int subtask) {
        if (bounded && pending.isEmpty(subtask)) {
            context.signalNoMoreSplits(subtask);
        }
    }

    /** Under lock: every pending split of {@code subtaskId} (Lane B). */
    private void assignAllTo(int subtaskId) {
        pending.handOut(
                subtaskId, Integer.MAX_VALUE, batch -> context.assignSplit(subtaskId, batch));
    }
}
