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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.engine.managed.source.reader.OutboundRequests;

/**
 * The reader context a Lane A connector's reader is created with: the engine's own context, except
 * that split requests and source events to the enumerator become commands of the attempt's {@link
 * OutboundRequests} instead of remote calls that the calling thread would join.
 *
 * <p>Threading: stateless apart from what it delegates to; the two request methods may be called
 * from any thread and never block.
 */
final class ManagedReaderContext implements SourceReader.Context {
    private final SourceReader.Context engine;
    private final OutboundRequests requests;
    private final Serializer<SourceEvent> events;

    /**
     * @param events the connector's versioned event serializer, or null if it declares none
     */
    ManagedReaderContext(
            SourceReader.Context engine,
            OutboundRequests requests,
            Serializer<SourceEvent> events) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.requests = Objects.requireNonNull(requests, "requests");
        this.events = events;
    }

    @Override
    public int getIndexOfSubtask() {
        return engine.getIndexOfSubtask();
    }

    @Override
    public Boundedness getBoundedness() {
        return engine.getBoundedness();
    }

    @Override
    public void signalNoMoreElement() {
        engine.signalNoMoreElement();
    }

    /** Asks the coordinator for a split; coalesced with an earlier request that has no answer. */
    @Override
    public void sendSplitRequest() {
        requests.requestSplit();
    }

    /**
     * Sends {@code event} to the enumerator in the bytes of the connector's {@code
     * managedSourceEventSerializer()}; events never travel as Java serialization on Lane A.
     *
     * @throws UnsupportedOperationException if the connector declares no event serializer
     * @throws java.util.concurrent.RejectedExecutionException at {@code
     *     reader.max-outstanding-requests}
     */
    @Override
    public void sendSourceEventToEnumerator(SourceEvent event) {
        if (events == null) {
            throw new UnsupportedOperationException(
                    "a Lane A reader sends source events in the bytes of its source's"
                            + " managedSourceEventSerializer(), and this source declares none");
        }
        byte[] bytes;
        try {
            bytes = events.serialize(event);
        } catch (IOException e) {
            throw new UncheckedIOException("the source event serializer failed", e);
        }
        requests.sendEvent(bytes);
    }

    @Override
    public MetricsContext getMetricsContext() {
        return engine.getMetricsContext();
    }

    @Override
    public EventListener getEventListener() {
        return engine.getEventListener();
    }
}
