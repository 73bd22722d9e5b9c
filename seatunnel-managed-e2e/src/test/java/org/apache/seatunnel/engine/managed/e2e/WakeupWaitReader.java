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

package org.apache.seatunnel.engine.managed.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * A reader that, once it emitted {@code rows-before-wait} rows, waits inside every later poll turn
 * for {@code wait-millis} (30 s by default) the way a client library waits for data: the wait ends
 * early only when {@link #wakeup()} is called, and an interrupt of the waiting thread is ignored
 * (the flag is kept and set again when the wait ends). It is what a compliant Lane A reader may do,
 * and what the engine's own cancel (a thread interrupt) cannot end by itself. With {@code
 * displace-interrupt-listener} each wait first does channel I/O, which takes the runtime's
 * interrupt listener off the thread, and then waits leaving the interrupt flag set, so that only
 * the member's periodic interrupt check can turn the cancel into {@code wakeup()}.
 *
 * <p>Threading: every method but {@link #wakeup()} runs on the reader event loop; {@code wakeup()}
 * any thread. The wait and {@code wakeup()} meet on this object's monitor.
 */
final class WakeupWaitReader implements ManagedSourceReader<SeaTunnelRow, PullSplit> {
    static final ManagedSourceCapability CAPABILITY =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();

    private final WakeupProbe probe;
    private final long rowsBeforeWait;
    private final long waitMillis;
    private final boolean displaceListener;
    // Loop thread only.
    private Pipe pipe;
    private final ArrayDeque<PullSplit> splits = new ArrayDeque<>();
    private long next = -1;
    private long emitted;
    private boolean noMoreSplits;
    private CompletableFuture<Void> available = new CompletableFuture<>();
    // Written under this: a wakeup not yet consumed by a wait (a wakeup before the wait ends it
    // too); volatile for the polling wait.
    private volatile boolean woken;

    WakeupWaitReader(
            WakeupProbe probe, long rowsBeforeWait, long waitMillis, boolean displaceListener) {
        this.probe = probe;
        this.rowsBeforeWait = rowsBeforeWait;
        this.waitMillis = waitMillis;
        this.displaceListener = displaceListener;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return CAPABILITY;
    }

    @Override
    public void open() {}

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (!splits.isEmpty() || noMoreSplits) {
            return CompletableFuture.completedFuture(null);
        }
        if (available.isDone()) {
            available = new CompletableFuture<>();
        }
        return available;
    }

    @Override
    public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext ctx) {
        PullSplit split = splits.peekFirst();
        if (split == null) {
            return noMoreSplits ? PollStatus.END_OF_INPUT : PollStatus.NOTHING_AVAILABLE;
        }
        if (emitted >= rowsBeforeWait) {
            if (displaceListener) {
                awaitWakeupAfterChannelIo();
            } else {
                awaitWakeup();
            }
            return PollStatus.MORE_AVAILABLE;
        }
        if (next < 0) {
            next = split.next;
        }
        while (next < split.end && emitted < rowsBeforeWait && !ctx.shouldYield()) {
            output.collect(new SeaTunnelRow(new Object[] {split.number, next}));
            next++;
            emitted++;
        }
        if (next >= split.end) {
            splits.pollFirst();
            next = -1;
        }
        return PollStatus.MORE_AVAILABLE;
    }

    /** Waits for {@link #wakeup()} at most {@code waitMillis}; interrupts do not end it. */
    private synchronized void awaitWakeup() {
        probe.waitingSinceNanos.set(System.nanoTime());
        probe.waitsStarted.incrementAndGet();
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        try {
            while (!woken) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                    probe.interruptsIgnored.incrementAndGet();
                }
            }
            probe.waitsWoken.incrementAndGet();
        } finally {
            woken = false;
            probe.waitsEnded.incrementAndGet();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Channel I/O first, as a client library's network read would: an interruptible channel
     * registers itself as the thread's interrupt handler for the call and clears it after, which
     * takes the runtime's own listener off the thread for the rest of the turn. Then waits by
     * polling the wakeup flag with parks, which neither end on an interrupt nor clear its flag:
     * only the member's periodic interrupt check can see the cancel.
     */
    private void awaitWakeupAfterChannelIo() {
        try {
            if (pipe == null) {
                pipe = Pipe.open();
            }
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
            pipe.source().read(ByteBuffer.allocate(1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Marked waiting only now: a cancel the test sends from here on finds the listener gone.
        probe.waitingSinceNanos.set(System.nanoTime());
        probe.waitsStarted.incrementAndGet();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        try {
            while (!woken) {
                if (deadline - System.nanoTime() <= 0) {
                    return;
                }
                if (Thread.currentThread().isInterrupted()) {
                    // A park returns at once while the flag is set: give the core away instead.
                    probe.interruptsIgnored.compareAndSet(0, 1);
                    Thread.yield();
                } else {
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
            probe.waitsWoken.incrementAndGet();
        } finally {
            synchronized (this) {
                woken = false;
            }
            probe.waitsEnded.incrementAndGet();
        }
    }

    @Override
    public synchronized void wakeup() {
        probe.firstWakeupNanos.compareAndSet(0, System.nanoTime());
        probe.wakeups.incrementAndGet();
        woken = true;
        notifyAll();
    }

    @Override
    public void pollNext(Collector<SeaTunnelRow> output) {
        throw new UnsupportedOperationException("WakeupWaitProbe runs on Lane A only");
    }

    @Override
    public List<PullSplit> snapshotState(long checkpointId) {
        List<PullSplit> state = new ArrayList<>();
        boolean first = true;
        for (PullSplit s : splits) {
            state.add(first && next >= 0 ? new PullSplit(s.number, next, s.end) : s);
            first = false;
        }
        return state;
    }

    @Override
    public void addSplits(List<PullSplit> added) {
        splits.addAll(added);
        available.complete(null);
    }

    @Override
    public void handleNoMoreSplits() {
        noMoreSplits = true;
        available.complete(null);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public void close() throws IOException {
        probe.closedNanos.compareAndSet(0, System.nanoTime());
        if (pipe != null) {
            pipe.sink().close();
            pipe.source().close();
        }
    }
}
