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

import java.time.Clock;
import java.util.Objects;

/**
 * Wires one coordinator's object graph — tracker, reader registry, envelope factory, scheduler
 * (with its lane of the member's async worker pool), core, outbound commands and enumerator context
 * — and hands it to a new {@link CoordinatorEventLoop}, so the loop's constructor only takes its
 * collaborators.
 *
 * <p>The graph has one cycle: the collaborators reach the loop through {@link LoopPort}, and the
 * loop drives them. The factory therefore creates the loop first (queues, executor, failure
 * handler), builds the collaborators against it, and {@link CoordinatorEventLoop#attach attaches}
 * them before anyone else can see the loop.
 *
 * <p>Threading: stateless; {@link #create} runs on the building thread and returns the loop fully
 * wired (its publication to other threads is the caller's, as for any new object).
 */
final class CoordinatorLoopFactory {
    private CoordinatorLoopFactory() {}

    static <SplitT extends org.apache.seatunnel.api.source.SourceSplit, StateT>
            CoordinatorEventLoop<SplitT, StateT> create(
                    CoordinatorEventLoop.Builder<SplitT, StateT> b) {
        CoordinatorConfig config = Objects.requireNonNull(b.config, "config");
        CoordinatorMetrics metrics = b.metrics == null ? new CoordinatorMetrics() : b.metrics;
        ClassLoader classLoader =
                b.classLoader != null
                        ? b.classLoader
                        : CoordinatorLoopFactory.class.getClassLoader();
        Clock clock = b.clock != null ? b.clock : Clock.systemUTC();
        DelayScheduler timer = Objects.requireNonNull(b.timer, "timer");
        SourceAsyncWorkerPool pool = Objects.requireNonNull(b.workerPool, "workerPool");
        CommandDispatcher dispatcher = Objects.requireNonNull(b.dispatcher, "dispatcher");

        CoordinatorEventLoop<SplitT, StateT> loop =
                new CoordinatorEventLoop<>(
                        config,
                        metrics,
                        Objects.requireNonNull(b.executor, "executor"),
                        classLoader,
                        Objects.requireNonNull(b.failureHandler, "failureHandler"));

        SourceAssignmentTracker tracker =
                new SourceAssignmentTracker(
                        config.maxTrackerEntries(),
                        config.maxTrackerBytes(),
                        config.maxUnassignedEntries(),
                        config.maxUnassignedBytes(),
                        config.checkpointsEnabled(),
                        metrics);
        tracker.parallelism(config.parallelism());
        ReaderRegistry readers = new ReaderRegistry();
        EnvelopeFactory envelopes =
                new EnvelopeFactory(config.jobId(), config.sourceRuntimeId(), config.epoch());
        CoordinatorSchedulerImpl scheduler =
                new CoordinatorSchedulerImpl(
                        loop,
                        pool.newShare(config.asyncMaxConcurrency(), config.asyncQueueCapacity()),
                        timer,
                        classLoader,
                        config.epoch(),
                        metrics);
        CoordinatorCore<SplitT, StateT> core =
                new CoordinatorCore<>(
                        config,
                        b.enumeratorFactory,
                        b.splitSerializer,
                        b.stateSerializer,
                        b.eventSerializer,
                        metrics,
                        tracker,
                        readers,
                        envelopes,
                        scheduler,
                        new TrackerGauges(metrics, clock),
                        b.restoreBlob);
        OutboundCommands outbound =
                new OutboundCommands(
                        loop, dispatcher, tracker, readers, envelopes, clock, config, metrics);
        CoordinatorEnumeratorContext<SplitT> context =
                new CoordinatorEnumeratorContext<>(
                        core, loop, config.parallelism(), b.metricsContext, b.eventListener);
        core.bind(outbound, context, loop);
        loop.attach(core, scheduler, context);
        return loop;
    }
}
