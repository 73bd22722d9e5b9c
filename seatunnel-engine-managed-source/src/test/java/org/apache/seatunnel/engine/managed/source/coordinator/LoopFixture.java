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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;

/** Builds a loop over a {@link TestEnumerator} with manual executors, timer and dispatcher. */
final class LoopFixture {
    static final ClassLoader CONNECTOR_LOADER =
            new URLClassLoader(new URL[0], LoopFixture.class.getClassLoader());

    final ManualExecutor loopExecutor = new ManualExecutor();
    final ManualExecutor workers = new ManualExecutor();
    final ManualTimer timer = new ManualTimer();
    final RecordingDispatcher dispatcher = new RecordingDispatcher();
    final List<String> failures = new ArrayList<>();
    final List<Throwable> failureCauses = new ArrayList<>();
    final SourceAsyncWorkerPool pool;
    final CoordinatorEventLoop<TestSplit, TestEnumerator.State> loop;
    TestEnumerator enumerator;

    LoopFixture(CoordinatorConfig config, List<TestSplit> splits, boolean async, byte[] restore) {
        this(config, splits, async, restore, null);
    }

    LoopFixture(
            CoordinatorConfig config,
            List<TestSplit> splits,
            boolean async,
            byte[] restore,
            SourceAsyncWorkerPool sharedPoolOrNull) {
        this(config, null, splits, async, restore, sharedPoolOrNull);
    }

    /** A loop over the enumerators {@code factory} makes (the test enumerator when null). */
    LoopFixture(
            CoordinatorConfig config,
            EnumeratorFactory<TestSplit, TestEnumerator.State> factory,
            List<TestSplit> splits,
            boolean async,
            byte[] restore,
            SourceAsyncWorkerPool sharedPoolOrNull) {
        this.pool =
                sharedPoolOrNull != null ? sharedPoolOrNull : new SourceAsyncWorkerPool(workers);
        this.loop =
                CoordinatorEventLoop.<TestSplit, TestEnumerator.State>builder()
                        .config(config)
                        .enumeratorFactory(
                                factory != null
                                        ? factory
                                        : new EnumeratorFactory<TestSplit, TestEnumerator.State>() {
                                            @Override
                                            public TestEnumerator create(
                                                    SourceSplitEnumerator.Context<TestSplit>
                                                            context) {
                                                enumerator =
                                                        new TestEnumerator(
                                                                context, splits, async, null);
                                                return enumerator;
                                            }

                                            @Override
                                            public TestEnumerator restore(
                                                    SourceSplitEnumerator.Context<TestSplit>
                                                            context,
                                                    TestEnumerator.State state) {
                                                enumerator =
                                                        new TestEnumerator(
                                                                context, splits, async, state);
                                                return enumerator;
                                            }
                                        })
                        .splitSerializer(new TestSplit.Ser())
                        .stateSerializer(new TestEnumerator.StateSer())
                        .dispatcher(dispatcher)
                        .executor(loopExecutor)
                        .timer(timer)
                        .clock(timer.clock())
                        .workerPool(pool)
                        .classLoader(CONNECTOR_LOADER)
                        .failureHandler(
                                (where, cause) -> {
                                    failures.add(where);
                                    failureCauses.add(cause);
                                })
                        .restoreFrom(restore)
                        .build();
    }

    static List<TestSplit> splits(int n) {
        List<TestSplit> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(TestSplit.of("s" + i));
        }
        return l;
    }

    static CoordinatorConfig.Builder config(int parallelism) {
        return CoordinatorConfig.builder().jobId(7).sourceRuntimeId(3).parallelism(parallelism);
    }

    void drain() {
        loopExecutor.runAll();
    }

    CoordinatorMetrics metrics() {
        return loop.metrics();
    }

    long count(CoordinatorMetrics.Counter c) {
        return loop.metrics().get(c);
    }
}
