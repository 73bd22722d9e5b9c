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

package org.apache.seatunnel.engine.managed.faults.world;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.seatunnel.engine.managed.faults.MailboxPort;
import org.apache.seatunnel.engine.managed.faults.Transport;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The transport between the coordinator and the reader mailboxes. With {@code fifo} (the default)
 * it keeps what Zeta's {@code CommandSender} keeps for one target (subtask, attempt): the first
 * deliveries of sequenced commands happen in dispatch order. A send that is lost, answered
 * RETRY_LATER or held back blocks the later first deliveries to that target until the same command
 * is sent again or released; redeliveries of a command already admitted need no order. Without
 * {@code fifo} the network is only what the {@code CommandDispatcher} contract promises: lost sends
 * vanish and held ones arrive in any order.
 *
 * <p>Threading: confined to the run's thread; deliveries and answers run inline on it.
 *
 * <p>Held sends, delayed answers and duplicate copies wait in the network until {@link #releaseOne}
 * or {@link #releaseAll}; they survive a restore, so stale messages still reach new attempts and
 * dead coordinators, as they do on a real cluster.
 */
public final class Network implements Transport {
    /** Finds the mailbox of a reader attempt; null when the attempt no longer exists. */
    public interface Router {
        MailboxPort port(int subtask, long attemptId);
    }

    private final Router router;
    private final boolean fifo;
    private final Map<Target, TargetQueue> queues = new HashMap<>();
    private final List<Runnable> later = new ArrayList<>();
    private final ArrayDeque<SourceCommandEnvelope> history = new ArrayDeque<>();
    private long delivered;

    public Network(Router router, boolean fifo) {
        this.router = router;
        this.fifo = fifo;
    }

    @Override
    public void send(SourceCommandEnvelope env, Consumer<AdmissionAck> onAnswer, Delivery d) {
        if (!fifo || env.senderSequence() <= 0) {
            unordered(env, onAnswer, d);
            return;
        }
        Target t = new Target(env.targetSubtask(), env.targetAttemptId());
        TargetQueue queue = queues.get(t);
        if (queue == null) {
            queue = new TargetQueue();
            queues.put(t, queue);
        }
        if (queue.firstDelivered.contains(env.commandId())) {
            unordered(env, onAnswer, d);
            return;
        }
        Item waiting = queue.find(env.commandId());
        if (waiting != null && waiting.state == Delivery.LOST) {
            // The coordinator resends what the queue still waits for: it takes the original's
            // place.
            waiting.onAnswer = onAnswer;
            waiting.state = d;
        } else {
            queue.items.addLast(new Item(env, onAnswer, d, waiting != null));
        }
        pump(queue);
    }

    @Override
    public void later(Runnable action) {
        later.add(action);
    }

    private void unordered(SourceCommandEnvelope env, Consumer<AdmissionAck> onAnswer, Delivery d) {
        if (d == Delivery.LOST) {
            return;
        }
        if (d == Delivery.HELD) {
            later.add(() -> deliver(env, onAnswer));
            return;
        }
        deliver(env, onAnswer);
    }

    private void pump(TargetQueue queue) {
        while (!queue.items.isEmpty() && queue.items.peekFirst().state == Delivery.NOW) {
            Item head = queue.items.pollFirst();
            AdmissionAck ack = offer(head.env);
            if (ack.status() == AdmissionStatus.RETRY_LATER && !head.redelivery) {
                // Zeta's sender keeps retrying the head; here the coordinator's own retry
                // resends it, and nothing behind it may overtake meanwhile.
                Consumer<AdmissionAck> waiter = head.onAnswer;
                head.state = Delivery.LOST;
                head.onAnswer = null;
                queue.items.addFirst(head);
                answer(head.env, ack, waiter);
                return;
            }
            queue.firstDelivered.add(head.env.commandId());
            answer(head.env, ack, head.onAnswer);
        }
    }

    private void deliver(SourceCommandEnvelope env, Consumer<AdmissionAck> onAnswer) {
        answer(env, offer(env), onAnswer);
    }

    private AdmissionAck offer(SourceCommandEnvelope env) {
        delivered++;
        MailboxPort port = router.port(env.targetSubtask(), env.targetAttemptId());
        AdmissionAck ack =
                port == null
                        ? AdmissionAck.rejected(
                                AdmissionStatus.STALE_TARGET,
                                env.targetAttemptId(),
                                ReasonCode.STALE_ATTEMPT)
                        : port.offer(env);
        // A redelivery repeats what arrived: with FIFO queues, only what was admitted, since a
        // copy of a never-admitted send would be a first delivery out of order.
        if (!fifo || ack.status().isAdmitted()) {
            if (history.size() >= 64) {
                history.pollFirst();
            }
            history.addLast(env);
        }
        return ack;
    }

    private static void answer(
            SourceCommandEnvelope env, AdmissionAck ack, Consumer<AdmissionAck> onAnswer) {
        if (onAnswer != null) {
            onAnswer.accept(ack);
        }
    }

    /** Delivers an old envelope again (at-least-once transport); its answer goes nowhere. */
    public void redeliverOld(Random rnd) {
        if (history.isEmpty()) {
            return;
        }
        int i = rnd.nextInt(history.size());
        Iterator<SourceCommandEnvelope> it = history.iterator();
        SourceCommandEnvelope env = it.next();
        while (i-- > 0) {
            env = it.next();
        }
        offer(env);
    }

    /**
     * Releases one held message (a held send at a queue's head, a delayed answer or copy), chosen
     * by {@code rnd}.
     *
     * @return false if nothing was held
     */
    public boolean releaseOne(Random rnd) {
        List<TargetQueue> heldQueues = new ArrayList<>();
        for (TargetQueue l : queues.values()) {
            if (!l.items.isEmpty() && l.items.peekFirst().state == Delivery.HELD) {
                heldQueues.add(l);
            }
        }
        int n = later.size() + heldQueues.size();
        if (n == 0) {
            return false;
        }
        int pick = rnd.nextInt(n);
        if (pick < later.size()) {
            later.remove(pick).run();
        } else {
            TargetQueue l = heldQueues.get(pick - later.size());
            l.items.peekFirst().state = Delivery.NOW;
            pump(l);
        }
        return true;
    }

    /** Releases until nothing is held; returns how many were released. */
    public int releaseAll(Random rnd) {
        int n = 0;
        while (releaseOne(rnd)) {
            if (++n > 100_000) {
                throw new IllegalStateException("held messages keep coming back");
            }
        }
        return n;
    }

    /** Forgets the queues of attempts that no longer exist (after a restore). */
    public void dropQueues() {
        queues.clear();
    }

    /** Messages held, including queue heads waiting for a resend. */
    public int held() {
        int n = later.size();
        for (TargetQueue l : queues.values()) {
            n += l.items.size();
        }
        return n;
    }

    /** Target queues and their waiting sends, for failure messages. */
    public String describe() {
        StringBuilder sb = new StringBuilder("later=").append(later.size());
        for (Map.Entry<Target, TargetQueue> e : queues.entrySet()) {
            if (e.getValue().items.isEmpty()) {
                continue;
            }
            sb.append(" queue ")
                    .append(e.getKey().subtask)
                    .append('/')
                    .append(e.getKey().attempt)
                    .append(":");
            for (Item i : e.getValue().items) {
                sb.append(' ')
                        .append(i.env.commandKind())
                        .append(" cmd=")
                        .append(i.env.commandId())
                        .append(" seq=")
                        .append(i.env.senderSequence())
                        .append(' ')
                        .append(i.state)
                        .append(i.redelivery ? " (copy)" : "");
            }
        }
        return sb.toString();
    }

    public long delivered() {
        return delivered;
    }

    private static final class Target {
        final int subtask;
        final long attempt;

        Target(int subtask, long attempt) {
            this.subtask = subtask;
            this.attempt = attempt;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Target
                    && ((Target) o).subtask == subtask
                    && ((Target) o).attempt == attempt;
        }

        @Override
        public int hashCode() {
            return subtask * 31 + Long.hashCode(attempt);
        }
    }

    /** One target's sends whose first delivery has not happened, in dispatch order. */
    private static final class TargetQueue {
        final ArrayDeque<Item> items = new ArrayDeque<>();
        final Set<Long> firstDelivered = new HashSet<>();

        Item find(long commandId) {
            for (Item i : items) {
                if (i.env.commandId() == commandId && !i.redelivery) {
                    return i;
                }
            }
            return null;
        }
    }

    private static final class Item {
        final SourceCommandEnvelope env;
        final boolean redelivery;
        Consumer<AdmissionAck> onAnswer;
        Delivery state;

        Item(
                SourceCommandEnvelope env,
                Consumer<AdmissionAck> onAnswer,
                Delivery state,
                boolean r) {
            this.env = env;
            this.onAnswer = onAnswer;
            this.state = state;
            this.redelivery = r;
        }
    }
}
