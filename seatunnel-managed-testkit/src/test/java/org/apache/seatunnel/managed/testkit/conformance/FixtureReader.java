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

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;

/**
 * A reader written by hand the way connectors are today (a fetch thread, a queue, an availability
 * future), correct unless told to have one of the {@link Flaw}s the conformance rules must catch.
 *
 * <p>Threading: the driver calls everything on one thread except {@link #wakeup()}; the fetch
 * thread owns {@code fetchCursors} and talks to the loop through {@code fetched} and {@code
 * incoming}.
 */
final class FixtureReader implements ManagedSourceReader<String, FixtureSplit> {

    /** A realistic connector bug. */
    enum Flaw {
        BLOCKING_POLL,
        /**
         * The availability future is never completed. So that the flaw shows on every run, not only
         * when the fetch thread happens to fall behind the loop, the fetch thread fetches only
         * after a turn returned NOTHING_AVAILABLE (a few records per such turn): data always
         * arrives after the loop was told there was none, and a loop that then waits for the future
         * is never woken.
         */
        NEVER_SIGNALS_AVAILABILITY,
        FETCH_THREAD_ADVANCES_POSITIONS,
        /**
         * As above, with a fetch thread that paces itself (one record per 2 ms, as a consumer with
         * a trickle of data), so it is still advancing while the loop idles.
         */
        SLOW_FETCH_THREAD_ADVANCES_POSITIONS,
        SNAPSHOT_MISSES_NEW_SPLIT,
        NON_IDEMPOTENT_ADD_SPLITS,
        LEAKS_THREAD,
        /**
         * A repeated checkpoint-complete or -aborted of the same id, or a second no-more-splits,
         * resubmits every held split to the fetch thread at its emitted position ("resume after
         * commit"), which fetches again what it had fetched but the loop had not emitted yet.
         */
        REPEATED_CALLBACK_RESUBMITS,
        /** The reader takes {@link FixtureEvent}s, but the source declares no event serializer. */
        UNDECLARED_EVENTS,
        /** A {@link FixtureEvent}'s stop position is kept beside the split state, not in it. */
        EVENT_STATE_NOT_SNAPSHOTTED,
        /** A poll turn sets the thread's context class loader to its own and leaves it. */
        LEAKS_CONTEXT_CLASS_LOADER,
        /**
         * Not a flaw: with nothing fetched, a turn waits for data until its deadline or {@code
         * wakeup()}, as a reader around a blocking client does.
         */
        WAITS_IN_POLL,
        /** As WAITS_IN_POLL, but the wait ignores {@code wakeup()} and ends at the deadline. */
        IGNORES_WAKEUP
    }

    static final ManagedSourceCapability CAPABILITY =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();

    /** Records NEVER_SIGNALS_AVAILABILITY's fetch thread may fetch after each empty turn. */
    private static final int EMPTY_TURN_FETCH_PERMITS = 8;

    private record Rec(int split, long i) {}

    private final Set<Flaw> flaws;
    private final ArrayBlockingQueue<Rec> fetched;
    private final ConcurrentLinkedQueue<FixtureSplit> incoming = new ConcurrentLinkedQueue<>();
    private final Object signal = new Object();
    private final CountDownLatch never = new CountDownLatch(1);
    // NEVER_SIGNALS_AVAILABILITY: records the fetch thread may fetch, released by empty turns
    private final Semaphore fetchPermits = new Semaphore(0);

    // loop-owned: the emitted position of every unfinished split, in assignment order
    private final Map<Integer, FixtureSplit> positions = new LinkedHashMap<>();
    private final List<FixtureSplit> pendingAdds = new ArrayList<>();
    // written by the fetch thread when FETCH_THREAD_ADVANCES_POSITIONS
    private final Map<Integer, FixtureSplit> fetchPositions = new ConcurrentHashMap<>();
    private boolean noMoreSplits;
    private boolean blocked;
    // loop-owned: splits a FixtureEvent ended early, whose further fetched records are dropped
    private final Set<Integer> cut = new HashSet<>();
    // loop-owned, EVENT_STATE_NOT_SNAPSHOTTED: stop positions outside the split state
    private final Map<Integer, Long> stopAt = new HashMap<>();
    // loop-owned: splits read to their end, so adding one again changes nothing
    private final Set<Integer> finished = new HashSet<>();
    // loop-owned: checkpoint ids already completed or aborted
    private final Set<Long> completed = new HashSet<>();
    private final Set<Long> aborted = new HashSet<>();
    // guarded by signal: wakeup() was called since the last wait in a turn
    private boolean woken;

    // guarded by signal
    private CompletableFuture<Void> availability;
    private volatile boolean running = true;
    private Thread fetchThread;

    FixtureReader(Set<Flaw> flaws) {
        this.flaws = flaws.isEmpty() ? EnumSet.noneOf(Flaw.class) : EnumSet.copyOf(flaws);
        this.fetched =
                new ArrayBlockingQueue<>(
                        this.flaws.contains(Flaw.SLOW_FETCH_THREAD_ADVANCES_POSITIONS) ? 4096 : 32);
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return CAPABILITY;
    }

    @Override
    public void open() {
        fetchThread = new Thread(this::fetchLoop, "fixture-fetch");
        fetchThread.setDaemon(true);
        fetchThread.start();
    }

    private void fetchLoop() {
        Map<Integer, FixtureSplit> cursors = new LinkedHashMap<>();
        try {
            while (running) {
                for (FixtureSplit s = incoming.poll(); s != null; s = incoming.poll()) {
                    cursors.put(s.number(), s);
                }
                FixtureSplit next = cursors.values().stream().findFirst().orElse(null);
                if (next == null) {
                    synchronized (signal) {
                        if (incoming.isEmpty() && running) {
                            signal.wait(50);
                        }
                    }
                    continue;
                }
                if (flaws.contains(Flaw.NEVER_SIGNALS_AVAILABILITY)
                        && !fetchPermits.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                Rec r = new Rec(next.number(), next.next());
                FixtureSplit advanced = next.withNext(next.next() + 1);
                boolean advancesHere =
                        flaws.contains(Flaw.FETCH_THREAD_ADVANCES_POSITIONS)
                                || flaws.contains(Flaw.SLOW_FETCH_THREAD_ADVANCES_POSITIONS);
                if (advancesHere) {
                    // Before the record is queued, so a snapshot taken while it waits in the
                    // queue (a turn that ended MORE_AVAILABLE) is always ahead of what was
                    // emitted: the flaw must show whenever records are queued, not by a race.
                    fetchPositions.put(next.number(), advanced);
                }
                if (!fetched.offer(r, 50, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                if (flaws.contains(Flaw.SLOW_FETCH_THREAD_ADVANCES_POSITIONS)) {
                    synchronized (signal) {
                        signal.wait(5);
                    }
                }
                if (advanced.next() >= advanced.end()) {
                    cursors.remove(next.number());
                } else {
                    cursors.put(next.number(), advanced);
                }
                if (!flaws.contains(Flaw.NEVER_SIGNALS_AVAILABILITY)) {
                    completeAvailability();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void addSplits(List<FixtureSplit> splits) {
        for (FixtureSplit s : splits) {
            if (flaws.contains(Flaw.SNAPSHOT_MISSES_NEW_SPLIT)) {
                pendingAdds.add(s);
                continue;
            }
            take(s);
        }
    }

    private void take(FixtureSplit s) {
        boolean known = positions.containsKey(s.number()) || finished.contains(s.number());
        if (known && !flaws.contains(Flaw.NON_IDEMPOTENT_ADD_SPLITS)) {
            return;
        }
        if (s.next() >= s.end()) {
            finished.add(s.number());
            return;
        }
        if (!known) {
            positions.put(s.number(), s);
            fetchPositions.put(s.number(), s);
        }
        incoming.add(s);
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    @Override
    public void handleNoMoreSplits() {
        if (noMoreSplits) {
            resubmitIfFlawed();
        }
        noMoreSplits = true;
    }

    private void resubmitIfFlawed() {
        if (!flaws.contains(Flaw.REPEATED_CALLBACK_RESUBMITS)) {
            return;
        }
        incoming.addAll(positions.values());
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    @Override
    public void handleSourceEvent(SourceEvent event) {
        if (!(event instanceof FixtureEvent)) {
            return;
        }
        FixtureEvent e = (FixtureEvent) event;
        if (flaws.contains(Flaw.EVENT_STATE_NOT_SNAPSHOTTED)) {
            stopAt.put(e.split(), e.end());
            return;
        }
        FixtureSplit p = positions.get(e.split());
        if (p == null) {
            return;
        }
        cut.add(e.split());
        FixtureSplit ended = new FixtureSplit(p.number(), p.next(), Math.min(p.end(), e.end()));
        if (ended.next() >= ended.end()) {
            positions.remove(e.split());
            fetchPositions.remove(e.split());
            finished.add(e.split());
        } else {
            positions.put(e.split(), ended);
        }
    }

    @Override
    public PollStatus pollNextManaged(Collector<String> output, PollContext ctx) throws Exception {
        if (flaws.contains(Flaw.LEAKS_CONTEXT_CLASS_LOADER)) {
            // A client library that wants its own loader, set and never put back.
            Thread.currentThread().setContextClassLoader(FixtureReader.class.getClassLoader());
        }
        if (flaws.contains(Flaw.BLOCKING_POLL) && !blocked) {
            blocked = true;
            // Ignores the deadline and wakeup(), as a blocking client call would.
            never.await(3, TimeUnit.SECONDS);
        }
        for (FixtureSplit s : pendingAdds) {
            take(s);
        }
        pendingAdds.clear();
        int emitted = 0;
        while (ctx.remainingRecords() > 0 && !ctx.shouldYield()) {
            Rec r = fetched.poll();
            if (r == null) {
                break;
            }
            FixtureSplit p = positions.get(r.split());
            long end =
                    p == null
                            ? Long.MAX_VALUE
                            : Math.min(p.end(), stopAt.getOrDefault(r.split(), Long.MAX_VALUE));
            if (p == null ? cut.contains(r.split()) : r.i() >= end) {
                // Past a stop position an event set: fetched, but not part of the data.
                continue;
            }
            output.collect("s" + r.split() + ":" + r.i());
            emitted++;
            if (p != null) {
                FixtureSplit moved = p.withNext(r.i() + 1);
                if (moved.next() >= end) {
                    positions.remove(r.split());
                    fetchPositions.remove(r.split());
                    finished.add(r.split());
                    if (end < p.end()) {
                        cut.add(r.split());
                    }
                } else {
                    positions.put(r.split(), moved);
                }
            }
        }
        boolean waits = flaws.contains(Flaw.WAITS_IN_POLL) || flaws.contains(Flaw.IGNORES_WAKEUP);
        if (waits && emitted == 0 && !(noMoreSplits && positions.isEmpty())) {
            synchronized (signal) {
                while (fetched.isEmpty() && (flaws.contains(Flaw.IGNORES_WAKEUP) || !woken)) {
                    long left = ctx.deadlineNanos() - ctx.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    signal.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
                woken = false;
            }
        }
        if (!fetched.isEmpty()) {
            return PollStatus.MORE_AVAILABLE;
        }
        if (noMoreSplits && positions.isEmpty() && pendingAdds.isEmpty()) {
            return PollStatus.END_OF_INPUT;
        }
        if (flaws.contains(Flaw.NEVER_SIGNALS_AVAILABILITY)) {
            fetchPermits.release(EMPTY_TURN_FETCH_PERMITS);
        }
        return PollStatus.NOTHING_AVAILABLE;
    }

    /** Lane B is not under test here. */
    @Override
    public void pollNext(Collector<String> output) {
        throw new UnsupportedOperationException("the fixture runs on Lane A only");
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        synchronized (signal) {
            if (!fetched.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            if (availability == null) {
                availability = new CompletableFuture<>();
            }
            return availability;
        }
    }

    private void completeAvailability() {
        CompletableFuture<Void> f;
        synchronized (signal) {
            f = availability;
            availability = null;
            // A turn waiting for data (WAITS_IN_POLL) wakes up to take it.
            signal.notifyAll();
        }
        if (f != null) {
            f.complete(null);
        }
    }

    @Override
    public void wakeup() {
        synchronized (signal) {
            woken = true;
            signal.notifyAll();
        }
        if (!flaws.contains(Flaw.NEVER_SIGNALS_AVAILABILITY)) {
            completeAvailability();
        }
    }

    @Override
    public List<FixtureSplit> snapshotState(long checkpointId) {
        if (flaws.contains(Flaw.FETCH_THREAD_ADVANCES_POSITIONS)
                || flaws.contains(Flaw.SLOW_FETCH_THREAD_ADVANCES_POSITIONS)) {
            List<FixtureSplit> out = new ArrayList<>();
            for (FixtureSplit p : positions.values()) {
                out.add(fetchPositions.getOrDefault(p.number(), p));
            }
            return out;
        }
        return new ArrayList<>(positions.values());
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        if (!completed.add(checkpointId)) {
            resubmitIfFlawed();
        }
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        if (!aborted.add(checkpointId)) {
            resubmitIfFlawed();
        }
    }

    @Override
    public void close() {
        if (flaws.contains(Flaw.LEAKS_THREAD)) {
            return;
        }
        running = false;
        synchronized (signal) {
            signal.notifyAll();
        }
        try {
            fetchThread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops a leaked fetch thread after the test (LEAKS_THREAD). */
    void stopLeakedThread() {
        running = false;
    }
}
