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

package org.apache.seatunnel.engine.managed.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every adjacent pair of reader-side events, injected either together (both pending when the loop
 * runs) or one after the other, checked against a small reference model of STIP-31's ordering:
 * ordered controls in FIFO, at most one poll turn after them (an idle reader is polled after every
 * applied command), the strict cut at barriers, and terminal preemption.
 */
class ReaderEventLoopOrderingTest {

    enum Ev {
        ASSIGN,
        NO_MORE_SPLITS,
        SOURCE_EVENT,
        BARRIER,
        CHECKPOINT_COMPLETE,
        CLOSE,
        CANCEL,
        AVAILABILITY,
        POLL_DATA
    }

    static Stream<Arguments> pairs() {
        List<Arguments> out = new ArrayList<>();
        for (Ev a : Ev.values()) {
            for (Ev b : Ev.values()) {
                out.add(Arguments.of(a, b, true));
                out.add(Arguments.of(a, b, false));
            }
        }
        return out.stream();
    }

    /** Reference model of what the reader should observe. */
    static final class Model {
        final List<String> trace = new ArrayList<>();
        final List<String> owned = new ArrayList<>();
        boolean draining;
        boolean cancelled;
        boolean pollWanted;
        boolean noMoreSplits;
        int checkpoints;
        long lastComplete;

        void control(Ev e, int n) {
            switch (e) {
                case ASSIGN:
                    String id = "s" + n;
                    owned.add(id);
                    trace.add("addSplits:[" + id + "]");
                    pollWanted = true;
                    break;
                case NO_MORE_SPLITS:
                    // Delivered to the connector once per attempt, however often it is re-sent.
                    if (!noMoreSplits) {
                        noMoreSplits = true;
                        trace.add("noMoreSplits");
                    }
                    pollWanted = true;
                    break;
                case SOURCE_EVENT:
                    trace.add("event:e" + n);
                    pollWanted = true;
                    break;
                case BARRIER:
                    trace.add("snapshot:" + n + owned);
                    checkpoints++;
                    // Every applied command earns an idle reader a poll (NOTHING_AVAILABLE).
                    pollWanted = true;
                    break;
                case CHECKPOINT_COMPLETE:
                    if (n > lastComplete) {
                        lastComplete = n;
                        trace.add("complete:" + n);
                    }
                    pollWanted = true;
                    break;
                case CLOSE:
                    draining = true;
                    break;
                default:
                    pollWanted = true;
            }
        }

        void endOfIteration() {
            if (!cancelled && !draining && pollWanted) {
                trace.add("poll");
            }
            pollWanted = false;
        }
    }

    private static boolean isMailboxCommand(Ev e) {
        return e != Ev.CANCEL && e != Ev.AVAILABILITY && e != Ev.POLL_DATA;
    }

    private static AdmissionAck inject(LoopHarness h, Ev e, int n) {
        switch (e) {
            case ASSIGN:
                return h.offer(h.assign("s" + n));
            case NO_MORE_SPLITS:
                return h.offer(h.coordinator(CommandKind.NO_MORE_SPLITS, "").build());
            case SOURCE_EVENT:
                return h.offer(h.coordinator(CommandKind.SOURCE_EVENT, "e" + n).build());
            case BARRIER:
                return h.local.barrier(n);
            case CHECKPOINT_COMPLETE:
                return h.local.checkpointComplete(n);
            case CLOSE:
                return h.local.gracefulClose();
            case CANCEL:
                h.mailbox.terminate(TerminalSignal.cancel());
                return null;
            case AVAILABILITY:
                h.mailbox.signalAvailable();
                return null;
            default:
                h.reader.available.complete(null);
                return null;
        }
    }

    @ParameterizedTest(name = "{0} then {1}, together={2}")
    @MethodSource("pairs")
    void adjacentPairKeepsOrderCutAndTerminalPreemption(Ev a, Ev b, boolean together)
            throws Exception {
        LoopHarness h = new LoopHarness();
        h.reader.onPoll =
                (out, ctx) -> {
                    h.reader.available = new java.util.concurrent.CompletableFuture<>();
                    return PollStatus.NOTHING_AVAILABLE;
                };
        h.loop.start(0);
        h.runUntilQuiet();
        h.reader.trace.clear();

        Model m = new Model();
        List<Ev> events = Arrays.asList(a, b);
        List<AdmissionAck> acks = new ArrayList<>();
        if (together) {
            for (int i = 0; i < 2; i++) {
                acks.add(inject(h, events.get(i), i + 1));
            }
            h.runUntilQuiet();
            if (a == Ev.CANCEL || b == Ev.CANCEL) {
                m.cancelled = true;
            } else {
                m.control(a, 1);
                m.control(b, 2);
                m.endOfIteration();
            }
        } else {
            for (int i = 0; i < 2; i++) {
                Ev e = events.get(i);
                acks.add(inject(h, e, i + 1));
                h.runUntilQuiet();
                if (e == Ev.CANCEL) {
                    m.cancelled = true;
                }
                if (!m.cancelled) {
                    m.control(e, i + 1);
                    m.endOfIteration();
                }
            }
        }

        assertEquals(m.trace, h.traceWithoutOpen(), "reader trace");
        if (m.cancelled) {
            assertEquals(ReaderLifecycle.CANCELLING, h.loop.lifecycle());
            assertTrue(h.reader.wakeups.get() >= 1, "cancel must call wakeup()");
            assertEquals(
                    m.checkpoints,
                    h.checkpoints.size(),
                    "only barriers taken before the cancel checkpoint");
            if (a == Ev.CANCEL && isMailboxCommand(b)) {
                assertEquals(AdmissionStatus.TERMINAL_REJECTED, acks.get(1).status());
            }
        } else {
            for (int i = 0; i < 2; i++) {
                if (isMailboxCommand(events.get(i))) {
                    assertEquals(AdmissionStatus.ACCEPTED, acks.get(i).status());
                }
            }
            assertEquals(m.checkpoints, h.checkpoints.size(), "every barrier checkpoints once");
        }
        assertEquals(0, h.loop.heldCommands());
    }
}
