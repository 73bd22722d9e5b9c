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

package org.apache.seatunnel.api.source.managed;

import org.apache.seatunnel.api.annotation.Experimental;

/** What a bounded poll turn reports back to the reader event loop. */
@Experimental
public enum PollStatus {
    /** More records can be produced right now; the loop schedules another turn. */
    MORE_AVAILABLE,
    /**
     * Nothing can be produced without waiting. The loop polls again as soon as the future returned
     * by {@link ManagedSourceReader#isAvailable()} completes, after every command it applies
     * (splits, no-more-splits, source events, checkpoint barriers and notifications), and otherwise
     * at the latest after the runtime's idle wait ({@code reader.idle-wait}, 1 s by default),
     * whether or not the future completed. Completing the future when data arrives is still the
     * reader's duty: a reader whose data is only found by those re-polls is slowed down to them,
     * and the runtime reports it ("availability not signalled").
     */
    NOTHING_AVAILABLE,
    /** Every assigned split is finished and no more splits will come; the reader is done. */
    END_OF_INPUT
}
