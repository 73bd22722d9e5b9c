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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions.WorkerClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads of one member's Lane A runtime: the coordinator-loop pool, one async worker pool per
 * worker class, the watchdog and the sender thread, each bounded by the member's settings and named
 * {@code hz.<member>.managed-source-...}.
 *
 * <p>Threading: created by the member service's {@code init} and shut down by its {@code shutdown}
 * (Hazelcast calls both once, on one thread); the executors themselves are thread-safe.
 */
final class MemberExecutors {
    private static final Logger LOG = LoggerFactory.getLogger(MemberExecutors.class);

    final ThreadPoolExecutor coordinator;
    final Map<WorkerClass, ThreadPoolExecutor> async;
    final ScheduledThreadPoolExecutor watchdog;
    final ScheduledThreadPoolExecutor sender;

    MemberExecutors(String member, MemberSettings settings) {
        this.coordinator =
                new ThreadPoolExecutor(
                        settings.coordinatorThreads(),
                        settings.coordinatorThreads(),
                        0L,
                        TimeUnit.MILLISECONDS,
                        new ArrayBlockingQueue<>(settings.coordinatorQueueCapacity()),
                        daemonThreads("hz." + member + ".managed-source-coordinator-", true),
                        new ThreadPoolExecutor.AbortPolicy());
        Map<WorkerClass, ThreadPoolExecutor> pools = new EnumMap<>(WorkerClass.class);
        for (WorkerClass wc : WorkerClass.values()) {
            // Own threads per worker class: slow discovery never holds a coordinator-loop thread
            // (so never a snapshot) nor a COMPUTE worker.
            pools.put(
                    wc,
                    new ThreadPoolExecutor(
                            settings.asyncThreads(wc),
                            settings.asyncThreads(wc),
                            0L,
                            TimeUnit.MILLISECONDS,
                            new ArrayBlockingQueue<>(settings.asyncQueueCapacity(wc)),
                            daemonThreads(
                                    "hz."
                                            + member
                                            + ".managed-source-async-"
                                            + wc.name().toLowerCase(Locale.ROOT)
                                            + "-",
                                    true),
                            new ThreadPoolExecutor.AbortPolicy()));
        }
        this.async = pools;
        this.watchdog =
                singleThreadScheduler(
                        daemonThreads("hz." + member + ".managed-source-watchdog", false));
        this.sender =
                singleThreadScheduler(
                        daemonThreads("hz." + member + ".managed-source-sender", false));
    }

    /** Stops the sender thread, first, so no send callback runs while pending sends are failed. */
    void shutdownSender() {
        shutdownNow(sender);
    }

    /** Stops every other thread. */
    void shutdownRest() {
        shutdownNow(watchdog);
        shutdownNow(coordinator);
        for (ThreadPoolExecutor e : async.values()) {
            shutdownNow(e);
        }
    }

    private static void shutdownNow(ExecutorService e) {
        // Threads are daemons; dropped tasks belong to hosts that are being torn down with the
        // member, so they are not handed back.
        e.shutdownNow();
    }

    private static ScheduledThreadPoolExecutor singleThreadScheduler(ThreadFactory factory) {
        ScheduledThreadPoolExecutor s = new ScheduledThreadPoolExecutor(1, factory);
        // Deadline and retry timers are cancelled far more often than they fire.
        s.setRemoveOnCancelPolicy(true);
        s.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        return s;
    }

    private static ThreadFactory daemonThreads(String name, boolean numbered) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, numbered ? name + n.getAndIncrement() : name);
            t.setDaemon(true);
            t.setUncaughtExceptionHandler(
                    (th, e) -> LOG.error("Uncaught failure on {}", th.getName(), e));
            return t;
        };
    }
}
