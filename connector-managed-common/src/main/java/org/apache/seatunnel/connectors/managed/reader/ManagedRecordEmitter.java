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

package org.apache.seatunnel.connectors.managed.reader;

import org.apache.seatunnel.api.source.Collector;

/**
 * Turns a fetched element into output records and advances its split's state, on the reader loop:
 * the only place a split's checkpoint-visible position moves, so the records a poll turn emitted
 * and the position they imply are always in the same checkpoint.
 *
 * <p>Threading: called only by the reader loop (the engine's task thread, under the base's
 * guarantees); needs no lock. Must not block.
 */
@FunctionalInterface
public interface ManagedRecordEmitter<E, T, SplitStateT> {

    /**
     * Emits what {@code element} stands for (zero or more records) to {@code output} and advances
     * {@code splitState} past it.
     */
    void emitRecord(E element, Collector<T> output, SplitStateT splitState) throws Exception;
}
