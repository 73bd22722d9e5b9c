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

package org.apache.seatunnel.engine.managed.e2e.faults;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultInjection;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;

/**
 * The fault injection of the engine tests, installed in every embedded member of this module's test
 * JVM through its service file: it does nothing until a test {@link #arm}s a {@link Plan}, and then
 * injects the plan's action at the plan's site the given number of times, from a given occurrence
 * on, for the plan's job only.
 *
 * <p>Threading: any thread (the runtime calls it from its own threads); one plan at a time, swapped
 * atomically; the counters of a plan are atomic.
 */
public final class ArmedFaults implements FaultInjection {
    private static final AtomicReference<Plan> PLAN = new AtomicReference<>();

    /** What to inject, where, and what happened. */
    public static final class Plan {
        final FaultSite site;
        final FaultAction action;
        final long jobId;
        final String detail;
        final int skip;
        final int times;
        final long holdMillis;
        final AtomicInteger seen = new AtomicInteger();
        final AtomicInteger fired = new AtomicInteger();
        final List<String> firedAt = new CopyOnWriteArrayList<>();
        final CountDownLatch released = new CountDownLatch(1);

        private Plan(
                FaultSite site,
                FaultAction action,
                long jobId,
                String detail,
                int skip,
                int times,
                long holdMillis) {
            if (!site.allows(action)) {
                throw new IllegalArgumentException(site + " does not carry out " + action);
            }
            this.site = site;
            this.action = action;
            this.jobId = jobId;
            this.detail = detail;
            this.skip = skip;
            this.times = times;
            this.holdMillis = holdMillis;
        }

        /** How often the action was injected so far. */
        public int fired() {
            return fired.get();
        }

        /** Where it was injected (the site's detail of each time). */
        public List<String> firedAt() {
            return firedAt;
        }

        /** Ends a STALL now instead of at its bound. */
        public void release() {
            released.countDown();
        }

        @Override
        public String toString() {
            return action + " at " + site + " (detail " + detail + ", fired " + fired + ")";
        }
    }

    /**
     * Arms a plan: {@code action} at {@code site} for job {@code jobId}, at events whose detail
     * contains {@code detail} (null: every event), after letting {@code skip} such events pass, at
     * most {@code times} times; a STALL holds at most {@code holdMillis}. Replaces any plan.
     */
    public static Plan arm(
            FaultSite site,
            FaultAction action,
            long jobId,
            String detail,
            int skip,
            int times,
            long holdMillis) {
        Plan p = new Plan(site, action, jobId, detail, skip, times, holdMillis);
        Plan old = PLAN.getAndSet(p);
        if (old != null) {
            old.release();
        }
        return p;
    }

    /** Ends the current plan (its stalls end too). */
    public static void disarm() {
        Plan old = PLAN.getAndSet(null);
        if (old != null) {
            old.release();
        }
    }

    /**
     * What the current plan injects at {@code site} for this event: the answer of {@link #at}, for
     * the engine tests' own interposers (points 9 and 10), which the runtime does not pass.
     */
    public static FaultAction injected(FaultSite site, long jobId, int subtask, String detail) {
        return INSTANCE.at(site, jobId, subtask, detail);
    }

    /** Carries out a STALL the interposers injected: as {@link #hold}, interrupt kept. */
    public static void holdHere(FaultSite site) {
        try {
            INSTANCE.hold(site);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final ArmedFaults INSTANCE = new ArmedFaults();

    @Override
    public FaultAction at(FaultSite site, long jobId, int subtask, String detail) {
        Plan p = PLAN.get();
        if (p == null
                || p.site != site
                || (p.jobId != 0 && jobId != 0 && p.jobId != jobId)
                || (p.detail != null && (detail == null || !detail.contains(p.detail)))) {
            return FaultAction.PROCEED;
        }
        if (p.seen.incrementAndGet() <= p.skip) {
            return FaultAction.PROCEED;
        }
        int n = p.fired.incrementAndGet();
        if (n > p.times) {
            p.fired.decrementAndGet();
            return FaultAction.PROCEED;
        }
        p.firedAt.add("subtask " + subtask + ": " + detail);
        return p.action;
    }

    @Override
    public void hold(FaultSite site) throws InterruptedException {
        Plan p = PLAN.get();
        if (p != null && p.site == site) {
            p.released.await(p.holdMillis, TimeUnit.MILLISECONDS);
        }
    }
}
