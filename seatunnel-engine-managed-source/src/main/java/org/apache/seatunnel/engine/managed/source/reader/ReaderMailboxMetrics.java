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

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;

/**
 * Admission counters of one or more mailboxes. Labels are the bounded status set only.
 *
 * <p>Threading: lock-free counters; any thread.
 */
public final class ReaderMailboxMetrics {
    private final AtomicLongArray byStatus = new AtomicLongArray(AdmissionStatus.values().length);
    private final AtomicLong reservedUses = new AtomicLong();
    private final AtomicLong reservedExhausted = new AtomicLong();

    void recordAdmission(AdmissionStatus status) {
        byStatus.incrementAndGet(status.ordinal());
    }

    void recordReservedUse() {
        reservedUses.incrementAndGet();
    }

    void recordReservedExhausted() {
        reservedExhausted.incrementAndGet();
    }

    public long admissions(AdmissionStatus status) {
        return byStatus.get(status.ordinal());
    }

    public long reservedUses() {
        return reservedUses.get();
    }

    public long reservedExhausted() {
        return reservedExhausted.get();
    }
}
