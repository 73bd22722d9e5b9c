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

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.api.common.metrics.Meter;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.common.metrics.ThreadSafeCounter;
import org.apache.seatunnel.api.common.metrics.ThreadSafeQPSMeter;
import org.apache.seatunnel.api.event.Event;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;

/**
 * The reader context of the driver: subtask 0 of 1, bounded, metrics in memory. Threading: any
 * thread.
 */
final class DriverContext implements SourceReader.Context {
    final AtomicInteger noMoreElementSignals = new AtomicInteger();
    final AtomicInteger splitRequests = new AtomicInteger();

    @Override
    public int getIndexOfSubtask() {
        return 0;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public void signalNoMoreElement() {
        noMoreElementSignals.incrementAndGet();
    }

    @Override
    public void sendSplitRequest() {
        splitRequests.incrementAndGet();
    }

    @Override
    public void sendSourceEventToEnumerator(SourceEvent sourceEvent) {}

    @Override
    public MetricsContext getMetricsContext() {
        return new MetricsContext() {
            @Override
            public Counter counter(String name) {
                return new ThreadSafeCounter(name);
            }

            @Override
            public <C extends Counter> C counter(String name, C counter) {
                return counter;
            }

            @Override
            public Meter meter(String name) {
                return new ThreadSafeQPSMeter(name);
            }

            @Override
            public <M extends Meter> M meter(String name, M meter) {
                return meter;
            }
        };
    }

    @Override
    public EventListener getEventListener() {
        return (Event event) -> {};
    }
}
