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
import java.util.concurrent.Executor;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * Builds one coordinator: takes its settings and the host's services, then wires its object graph —
 * tracker, reader registry, envelope factory, scheduler (with its lane of the member's async worker
 * pool), core, outbound commands and enumerator context — around a new {@link CoordinatorLoop}, and
 * returns their {@link CoordinatorEventLoop}.
 *
 * <p>The graph has one cycle: the collaborators reach the loop through {@link LoopPort}, and the
 * loop drives them. {@link #build} therefore creates the loop first (queues, executor, failure
 * handler), builds the collaborators against it, and {@link CoordinatorLoop#attach attaches} the
 * core before anyone else can see the loop.
 *
 * <p>Threading: not thread-safe; one building thread, which gets the loop fully wired (its
 * publication to other threads is the caller's, as for any new object).
 */
public final class CoordinatorLoopBuilder<SplitT extends SourceSplit, StateT> {
    CoordinatorConfig config;
    CoordinatorMetrics metrics;
    EnumeratorFactory<SplitT, StateT> enumeratorFactory;
    Serializer<SplitT> splitSerializer;
    Serializer<StateT> stateSerializer;
    Serializer<SourceEvent> eventSerializer;
    CommandDispatcher dispatcher;
    Executor executor;
    DelayScheduler timer;
    Clock clock;
    SourceAsyncWorkerPool workerPool;
    ClassLoader classLoader;
    CoordinatorFailureHandler failureHandler;
    MetricsContext metricsContext;
    EventListener eventListener;
    byte[] restoreBlob;

    CoordinatorLoopBuilder() {}

    public CoordinatorLoopBuilder<SplitT, StateT> config(CoordinatorConfig v) {
        this.config = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> metrics(CoordinatorMetrics v) {
        this.metrics = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> enumeratorFactory(
            EnumeratorFactory<SplitT, StateT> v) {
        this.enumeratorFactory = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> splitSerializer(Serializer<SplitT> v) {
        this.splitSerializer = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> stateSerializer(Serializer<StateT> v) {
        this.stateSerializer = v;
        return this;
    }

    /** Optional: without it, {@code sendEventToSourceReader} is unsupported. */
    public CoordinatorLoopBuilder<SplitT, StateT> eventSerializer(Serializer<SourceEvent> v) {
        this.eventSerializer = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> dispatcher(CommandDispatcher v) {
        this.dispatcher = v;
        return this;
    }

    /** Runs drain tasks; the Zeta binding passes a member pool executor. */
    public CoordinatorLoopBuilder<SplitT, StateT> executor(Executor v) {
        this.executor = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> timer(DelayScheduler v) {
        this.timer = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> clock(Clock v) {
        this.clock = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> workerPool(SourceAsyncWorkerPool v) {
        this.workerPool = v;
        return this;
    }

    /** The connector's classloader: context classloader for enumerator code and async calls. */
    public CoordinatorLoopBuilder<SplitT, StateT> classLoader(ClassLoader v) {
        this.classLoader = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> failureHandler(CoordinatorFailureHandler v) {
        this.failureHandler = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> metricsContext(MetricsContext v) {
        this.metricsContext = v;
        return this;
    }

    public CoordinatorLoopBuilder<SplitT, StateT> eventListener(EventListener v) {
        this.eventListener = v;
        return this;
    }

    /** The blob of the checkpoint to restore (coordinator failover), or null for a fresh start. */
    public CoordinatorLoopBuilder<SplitT, StateT> restoreFrom(byte[] blob) {
        this.restoreBlob = blob == null ? null : blob.clone();
        return this;
    }

    public CoordinatorEventLoop<SplitT, StateT> build() {
        CoordinatorConfig config = Objects.requireNonNull(this.config, "config");
        CoordinatorMetrics metrics = this.metrics == null ? new CoordinatorMetrics() : this.metrics;
        ClassLoader classLoader =
                this.classLoader != null
                        ? this.classLoader
                        : CoordinatorLoopBuilder.class.getClassLoader();
        Clock clock = this.clock != null ? this.clock : Clock.systemUTC();
        DelayScheduler timer = Objects.requireNonNull(this.timer, "timer");
        SourceAsyncWorkerPool pool = Objects.requireNonNull(workerPool, "workerPool");
        CommandDispatcher dispatcher = Objects.requireNonNull(this.dispatcher, "dispatcher");

        CoordinatorLoop<SplitT, StateT> loop =
                new CoordinatorLoop<>(
                        config,
                        metrics,
                        Objects.requireNonNull(executor, "executor"),
                        classLoader,
                        Objects.requireNonNull(failureHandler, "failureHandler"));

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
                        enumeratorFactory,
                        splitSerializer,
                        stateSerializer,
                        eventSerializer,
                        metrics,
                        tracker,
                        readers,
                        envelopes,
                        scheduler,
                        new TrackerGauges(metrics, clock),
                        restoreBlob);
        OutboundCommands outbound =
                new OutboundCommands(
                        loop, dispatcher, tracker, readers, envelopes, clock, config, metrics);
        CoordinatorEnumeratorContext<SplitT> context =
                new CoordinatorEnumeratorContext<>(
                        core, loop, config.parallelism(), metricsContext, eventListener);
        core.bind(outbound, context, loop);
        loop.attach(core);
        return new CoordinatorEventLoop<>(loop, core, scheduler, context);
    }
}
