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
 * The enumerator handed out more splits than the assignment tracker may hold before readers take
 * them ({@code assignment-tracker.max-unassigned-entries} / {@code max-unassigned-bytes}). The
 * message names the options and the way out; it never names a split.
 *
 * <p>Threading: immutable.
 */
public final class TrackerBoundException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public TrackerBoundException(String message) {
        super(message);
    }

    /** The unassigned bound refused one more split while {@code waiting} splits wait. */
    static TrackerBoundException unassigned(
            int waiting, long waitingBytes, int maxEntries, long maxBytes) {
        return new TrackerBoundException(
                "the enumerator handed out more splits than the coordinator may hold before"
                        + " readers take them ("
                        + waiting
                        + " waiting, "
                        + waitingBytes
                        + " estimated bytes; assignment-tracker.max-unassigned-entries "
                        + maxEntries
                        + ", max-unassigned-bytes "
                        + maxBytes
                        + "): hand splits out when asked (SupportSplitDemand) or raise the"
                        + " bound");
    }
}
