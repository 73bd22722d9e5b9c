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

/**
 * Life cycle of a {@link CoordinatorEventLoop}. One table of legal moves; {@link #checkTransition}
 * is the only gate.
 */
public enum LoopState {
    /** Constructed; commands other than open and close are buffered in arrival order. */
    CREATED,
    /** The enumerator is open; commands are applied one at a time. */
    RUNNING,
    /** Open failed; later commands are dropped (counted) until close. */
    FAILED,
    /** Closed; later commands are dropped and counted, late async results are fenced. */
    CLOSED;

    private static final boolean[][] LEGAL = new boolean[4][4];

    static {
        allow(CREATED, RUNNING);
        allow(CREATED, FAILED);
        allow(CREATED, CLOSED);
        allow(RUNNING, CLOSED);
        allow(FAILED, CLOSED);
    }

    private static void allow(LoopState from, LoopState to) {
        LEGAL[from.ordinal()][to.ordinal()] = true;
    }

    public static void checkTransition(LoopState from, LoopState to) {
        if (!LEGAL[from.ordinal()][to.ordinal()]) {
            throw new IllegalStateException(
                    "Illegal coordinator loop transition " + from + " -> " + to);
        }
    }
}
