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

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What {@link SlowDiscoveryEnumerator} did in one run: discoveries running and finished, the
 * rejections its result handler received, and the threads its callables ran on. {@link #release}
 * ends every discovery still waiting, so a test's jobs stop promptly.
 *
 * <p>Threading: any thread; one entry per run id, every field thread-safe.
 */
final class SlowDiscoveryProbe {
    private static final Map<String, SlowDiscoveryProbe> RUNS = new ConcurrentHashMap<>();

    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger finished = new AtomicInteger();
    final AtomicInteger submitted = new AtomicInteger();
    final List<Throwable> rejections = new CopyOnWriteArrayList<>();
    final List<Throwable> otherFailures = new CopyOnWriteArrayList<>();
    final List<String> callableThreads = new CopyOnWriteArrayList<>();
    final CountDownLatch release = new CountDownLatch(1);

    /** Discoveries submitted whose result (or refusal) has not reached the handler yet. */
    int inFlight() {
        return submitted.get() - finished.get() - rejections.size() - otherFailures.size();
    }

    static SlowDiscoveryProbe of(String runId) {
        return RUNS.computeIfAbsent(runId, k -> new SlowDiscoveryProbe());
    }

    static void clear(String runId) {
        SlowDiscoveryProbe p = RUNS.remove(runId);
        if (p != null) {
            p.release.countDown();
        }
    }
}
