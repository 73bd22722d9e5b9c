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

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which lane decisions were already logged. Zeta 2.3.8 deserializes a job's plan again on every
 * REST job-info call and every restore, and the lane is chosen at each deserialization: logging
 * each at INFO repeated "planned on" lines for an unchanged decision. A decision is logged at INFO
 * the first time for its job and source, and again only when it changed (an operator's edit, a
 * restore onto other settings); repeats go to DEBUG.
 *
 * <p>Threading: any thread; the memory is guarded by the instance monitor and bounded by {@link
 * #capacity} entries, the oldest forgotten first (a forgotten job's next decision is logged again).
 */
final class LaneDecisionLog {
    private final int capacity;

    // Guarded by this.
    private final Map<String, String> lastLogged;

    LaneDecisionLog(int capacity) {
        this.capacity = capacity;
        this.lastLogged =
                new LinkedHashMap<String, String>(16, 0.75f, true) {
                    private static final long serialVersionUID = 1L;

                    @Override
                    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                        return size() > LaneDecisionLog.this.capacity;
                    }
                };
    }

    /**
     * Whether {@code decision} of {@code source} in {@code jobId} is news: its first decision
     * remembered, or another than the last one.
     */
    synchronized boolean isNew(String jobId, String source, String decision) {
        String previous = lastLogged.put(jobId + '\u0000' + source, decision);
        return !decision.equals(previous);
    }

    synchronized int size() {
        return lastLogged.size();
    }
}
