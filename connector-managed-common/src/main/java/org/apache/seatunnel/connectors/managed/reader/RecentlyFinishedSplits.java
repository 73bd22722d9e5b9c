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

import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * The ids of the splits a reader finished most recently, oldest first, at most {@code
 * reader.finished-splits-remembered} of them, so a split assigned again after it was read to its
 * end is recognised without a reader of a million splits keeping a million ids.
 *
 * <p>Threading: not thread-safe; the reader base calls it under its split-state monitor.
 */
final class RecentlyFinishedSplits {
    private final int bound;
    private final Runnable forgotten;
    private final LinkedHashSet<String> ids = new LinkedHashSet<>();

    /**
     * @param forgotten counts each id that is not, or no longer, remembered
     */
    RecentlyFinishedSplits(int bound, Runnable forgotten) {
        this.bound = bound;
        this.forgotten = forgotten;
    }

    void add(String id) {
        if (bound == 0) {
            forgotten.run();
            return;
        }
        ids.add(id);
        if (ids.size() > bound) {
            Iterator<String> oldest = ids.iterator();
            oldest.next();
            oldest.remove();
            forgotten.run();
        }
    }

    boolean contains(String id) {
        return ids.contains(id);
    }

    int size() {
        return ids.size();
    }
}
