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

package org.apache.seatunnel.connectors.managed.fake;

import java.util.Objects;
import org.apache.seatunnel.api.source.SourceEvent;

/**
 * The source event ManagedFake's enumerator sends to a reader when {@code source.event.run.id} is
 * set: which run it belongs to and which subtask it was addressed to, so the receiver can prove the
 * event reached the right reader. Always carried by {@link ManagedFakeEventSerializer}.
 *
 * <p>Threading: immutable.
 */
public final class ManagedFakeEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final String runId;
    private final int targetSubtask;

    public ManagedFakeEvent(String runId, int targetSubtask) {
        this.runId = Objects.requireNonNull(runId, "runId");
        this.targetSubtask = targetSubtask;
    }

    public String runId() {
        return runId;
    }

    public int targetSubtask() {
        return targetSubtask;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ManagedFakeEvent)) {
            return false;
        }
        ManagedFakeEvent e = (ManagedFakeEvent) o;
        return runId.equals(e.runId) && targetSubtask == e.targetSubtask;
    }

    @Override
    public int hashCode() {
        return runId.hashCode() * 31 + targetSubtask;
    }

    @Override
    public String toString() {
        return "ManagedFakeEvent{" + runId + " -> " + targetSubtask + '}';
    }
}
