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

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * Which reader holds which split (handed out and not handed back), with the bytes it was handed out
 * as, the splits handed back and not out again, and the splits each reader got since the last
 * checkpoint. Threading: guarded by the driver's context monitor.
 */
final class SplitLedger {
    final TreeMap<String, Integer> holder = new TreeMap<>();
    final Map<String, byte[]> bytes = new HashMap<>();
    final TreeSet<String> returned = new TreeSet<>();
    final List<String> twice = new ArrayList<>();
    final Map<Integer, List<SourceSplit>> sinceCheckpoint = new HashMap<>();

    SplitLedger copy() {
        SplitLedger c = new SplitLedger();
        c.holder.putAll(holder);
        c.bytes.putAll(bytes);
        c.returned.addAll(returned);
        c.twice.addAll(twice);
        return c;
    }

    @SuppressWarnings("unchecked")
    <S> List<S> since(int subtask) {
        List<SourceSplit> l = sinceCheckpoint.get(subtask);
        return l == null ? Collections.<S>emptyList() : (List<S>) (List<?>) l;
    }
}
