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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;

/**
 * Hands out splits the connector computes from their number ({@code 0 .. count - 1}: key ranges,
 * pages, generated data) without holding them: reader subtask {@code n % parallelism} owns split
 * {@code n}, and the enumerator keeps one cursor per owner, so its memory and its checkpointed
 * state ({@link NumberedSplitState}) grow with the parallelism, not with the number of splits. A
 * million splits cost a few hundred bytes until they are handed out. Splits that come back (a
 * failed reader's, {@link #addSplitsBack}) wait in their owner's queue and go out before the
 * owner's next numbers.
 *
 * <p>On Lane A it implements {@code SupportSplitDemand}: each reader is given at most what it has
 * room for, so splits are computed only as readers need them. On Lane B a reader gets all of its
 * splits when it registers, as with {@link StaticSplitEnumerator}. A bounded source tells a reader
 * no more splits will come once it has all of its own; an unbounded one may find more splits and
 * raise the count ({@link #extendTo}).
 *
 * <p>A restore at the parallelism of its checkpoint takes the cursors as they were. At another
 * parallelism the splits between the lowest and the highest cursor that were not handed out are
 * computed into their new owners' queues, and the new cursors start at the highest: every split is
 * still handed out exactly once.
 *
 * <p>Threading: every method may be called from any thread; one monitor guards the cursors and
 * queues (Lane A calls on the coordinator loop, Lane B on engine threads, {@link #extendTo} from a
 * connector's own discovery). {@link #split} and {@link #number} are called under it and must not
 * block.
 */
public abstract class NumberedSplitEnumerator<SplitT extends SourceSplit>
        implements SourceSplitEnumerator<SplitT, NumberedSplitState<SplitT>>, SupportSplitDemand {

    protected final Context<SplitT> context;
    private final boolean bounded;
    private final boolean onDemand;
    private final int parallelism;

    private final Object lock = new Object();
    // guarded by lock: splits numbered below count exist
    private long count;
    // guarded by lock: for each owner, the next number it gets
    private final long[] next;
    // guarded by lock: splits given back, per owner in the order they go out again
    private final Map<Integer, ArrayDeque<SplitT>> waiting = new TreeMap<>();
    // guarded by lock
    private int waitingCount;
    // guarded by lock
    private final TreeSet<Integer> registered = new TreeSet<>();
    // guarded by lock: a restored state not yet taken in; null once it is (or when fresh)
    private NumberedSplitState<SplitT> restored;

    /** A fresh job's enumerator of {@code count} splits. */
    protected NumberedSplitEnumerator(Context<SplitT> context, long count, boolean bounded) {
        this(context, bounded, count, null);
    }

    /** An enumerator restored from {@code state}. */
    protected NumberedSplitEnumerator(
            Context<SplitT> context, NumberedSplitState<SplitT> state, boolean bounded) {
        this(context, bounded, state.count(), state);
    }

    private NumberedSplitEnumerator(
            Context<SplitT> context,
            boolean bounded,
            long count,
            NumberedSplitState<SplitT> restored) {
        if (count < 0) {
            throw new IllegalArgumentException("split count " + count + " is negative");
        }
        this.context = context;
        this.bounded = bounded;
        this.onDemand =
                context instanceof ManagedEnumeratorContext
                        && ((ManagedEnumeratorContext<?>) context).splitDemand();
        this.parallelism = Math.max(1, context.currentParallelism());
        this.count = count;
        this.next = new long[parallelism];
        for (int o = 0; o < parallelism; o++) {
            next[o] = o;
        }
        // Taken in at first use: it calls split() and number(), which a subclass may only answer
        // once its own constructor has run.
        this.restored = restored;
    }

    /** Split number {@code n}, as first handed out (a fresh split, nothing read yet). */
    protected abstract SplitT split(long number);

    /** The number of {@code split}: the {@code n} it was computed from. */
    protected abstract long number(SplitT split);

    /** Under lock: takes a restored state in, once. */
    private void restoreIfPending() {
        NumberedSplitState<SplitT> state = restored;
        if (state == null) {
            return;
        }
        restored = null;
        for (SplitT s : state.waiting()) {
            queue(s);
        }
        int owners = state.owners();
        if (owners == parallelism) {
            for (int o = 0; o < parallelism; o++) {
                next[o] = state.next(o);
            }
            return;
        }
        long low = Long.MAX_VALUE;
        long high = 0;
        for (int o = 0; o < owners; o++) {
            low = Math.min(low, state.next(o));
            high = Math.max(high, state.next(o));
        }
        high = Math.min(high, count);
        for (long n = low; n < high; n++) {
            if (n >= state.next((int) (n % owners))) {
                queue(split(n));
            }
        }
        for (int o = 0; o < parallelism; o++) {
            next[o] = firstOwnedFrom(high, o);
        }
    }

    /** The first number at or after {@code from} that owner {@code o} owns. */
    private long firstOwnedFrom(long from, int o) {
        long r = from % parallelism;
        return from + ((o - r) % parallelism + parallelism) % parallelism;
    }

    /** The owner of split number {@code n}. */
    private int ownerOf(long n) {
        return (int) (n % parallelism);
    }

    private void queue(SplitT split) {
        long n = number(split);
        if (n < 0) {
            throw new IllegalArgumentException("split number " + n + " is negative");
        }
        waiting.computeIfAbsent(ownerOf(n), k -> new ArrayDeque<>()).addLast(split);
        waitingCount++;
    }

    @Override
    public void open() {}

    /** Hands out what registered readers are owed and returns at once (the engine needs that). */
    @Override
    public void run() {
        synchronized (lock) {
            restoreIfPending();
            if (!onDemand) {
                for (int subtask : new ArrayList<>(registered)) {
                    handOut(subtask, Integer.MAX_VALUE);
                }
            }
        }
    }

    @Override
    public void close() {}

    @Override
    public void addSplitsBack(List<SplitT> splits, int subtaskId) {
        TreeSet<Integer> owners = new TreeSet<>();
        synchronized (lock) {
            restoreIfPending();
            for (SplitT s : splits) {
                queue(s);
                owners.add(ownerOf(number(s)));
            }
            handOutNowOnLaneB(owners);
        }
        announceOnLaneA(owners);
    }

    @Override
    public int currentUnassignedSplitSize() {
        synchronized (lock) {
            restoreIfPending();
            long r = waitingCount;
            for (long n : next) {
                r += NumberedSplitState.splitsLeft(n, count, parallelism);
            }
            return (int) Math.min(Integer.MAX_VALUE, r);
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId) {
        synchronized (lock) {
            restoreIfPending();
            // On demand the runtime answers a request by asking for splits (handleSplitDemand).
            if (!onDemand && registered.contains(subtaskId)) {
                handOut(subtaskId, Integer.MAX_VALUE);
            }
        }
    }

    @Override
    public void registerReader(int subtaskId) {
        synchronized (lock) {
            restoreIfPending();
            registered.add(subtaskId);
            if (!onDemand) {
                handOut(subtaskId, Integer.MAX_VALUE);
            }
            signalIfDone(subtaskId);
        }
    }

    /** Lane A: up to {@code maxSplits} of the reader's own splits, then no-more-splits if done. */
    @Override
    public void handleSplitDemand(int subtaskId, int maxSplits) {
        synchronized (lock) {
            restoreIfPending();
            handOut(subtaskId, maxSplits);
            signalIfDone(subtaskId);
        }
    }

    /**
     * An unbounded source found more splits: numbers up to {@code newCount - 1} now exist. On Lane
     * B registered owners get theirs at once; on Lane A the runtime is told which owners have
     * splits again and asks for them as readers have room. Any thread; a smaller count than now is
     * ignored.
     *
     * @throws IllegalStateException for a bounded source, whose readers may already have been told
     *     no more splits will come
     */
    protected void extendTo(long newCount) {
        if (bounded) {
            throw new IllegalStateException("a bounded source has all its splits at the start");
        }
        TreeSet<Integer> owners = new TreeSet<>();
        synchronized (lock) {
            restoreIfPending();
            if (newCount <= count) {
                return;
            }
            // The owners of the new numbers: at most one round of them.
            for (long n = count; n < newCount && n < count + parallelism; n++) {
                owners.add(ownerOf(n));
            }
            count = newCount;
            handOutNowOnLaneB(owners);
        }
        announceOnLaneA(owners);
    }

    /** Splits numbered below this exist now. */
    protected long count() {
        synchronized (lock) {
            restoreIfPending();
            return count;
        }
    }

    @Override
    public NumberedSplitState<SplitT> snapshotState(long checkpointId) throws Exception {
        synchronized (lock) {
            restoreIfPending();
            return state();
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {}

    /** Under lock. */
    private NumberedSplitState<SplitT> state() {
        List<SplitT> queued = new ArrayList<>(waitingCount);
        for (ArrayDeque<SplitT> q : waiting.values()) {
            queued.addAll(q);
        }
        return new NumberedSplitState<>(count, next, queued);
    }

    /** Under lock: on Lane B, registered {@code owners} get their new splits at once. */
    private void handOutNowOnLaneB(TreeSet<Integer> owners) {
        if (onDemand) {
            return;
        }
        for (int owner : owners) {
            if (registered.contains(owner)) {
                handOut(owner, Integer.MAX_VALUE);
            }
        }
    }

    /**
     * Outside the lock: on Lane A the runtime is told {@code owners} have splits again, and asks
     * for them as their readers have room.
     */
    private void announceOnLaneA(TreeSet<Integer> owners) {
        if (!onDemand) {
            return;
        }
        for (int owner : owners) {
            ((ManagedEnumeratorContext<?>) context).splitsAvailable(owner);
        }
    }

    /** Under lock: bounded and nothing left for {@code subtask}: no more will come. */
    private void signalIfDone(int subtask) {
        if (bounded && !waiting.containsKey(subtask) && next[subtask] >= count) {
            context.signalNoMoreSplits(subtask);
        }
    }

    /**
     * Under lock: up to {@code max} of {@code subtask}'s splits, those given back first; if the
     * delivery throws, nothing was handed out.
     */
    private void handOut(int subtask, int max) {
        if (subtask < 0 || subtask >= parallelism) {
            throw new IllegalArgumentException(
                    "subtask " + subtask + " is not a reader of " + parallelism);
        }
        ArrayDeque<SplitT> q = waiting.get(subtask);
        long cursor = next[subtask];
        long fromCursor = NumberedSplitState.splitsLeft(cursor, count, parallelism);
        int n = (int) Math.min(max, (q == null ? 0 : q.size()) + fromCursor);
        if (n <= 0) {
            return;
        }
        List<SplitT> batch = new ArrayList<>(n);
        int fromQueue = 0;
        while (batch.size() < n && q != null && !q.isEmpty()) {
            batch.add(q.pollFirst());
            fromQueue++;
        }
        long c = cursor;
        while (batch.size() < n) {
            batch.add(split(c));
            c += parallelism;
        }
        next[subtask] = c;
        waitingCount -= fromQueue;
        try {
            context.assignSplit(subtask, Collections.unmodifiableList(batch));
        } catch (RuntimeException e) {
            next[subtask] = cursor;
            for (int i = fromQueue - 1; i >= 0; i--) {
                q.addFirst(batch.get(i));
            }
            waitingCount += fromQueue;
            throw e;
        }
        if (q != null && q.isEmpty()) {
            waiting.remove(subtask);
        }
    }
}
