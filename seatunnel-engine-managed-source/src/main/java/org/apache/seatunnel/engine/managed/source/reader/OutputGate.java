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

package org.apache.seatunnel.engine.managed.source.reader;

/**
 * How many more records the output of a reader can take without blocking the thread that emits
 * them: a poll turn asks before its first record and again when the answer runs out, and ends early
 * (the connector's {@code shouldYield()} turns true) when the output has no room, instead of
 * blocking inside the engine's collector with the checkpoint lock held.
 *
 * <p>Threading: called only by the thread driving the reader loop, during a poll turn.
 */
public interface OutputGate {
    /** An output that never blocks (or whose room cannot be seen): turns are never cut for it. */
    OutputGate UNBOUNDED = emittedTotal -> Integer.MAX_VALUE;

    /**
     * Records that may be emitted now before the next call; zero or less when the output is full.
     *
     * @param emittedTotal records this reader has emitted in all turns so far, for gates that learn
     *     how fast the output drains
     */
    int credit(long emittedTotal);
}
