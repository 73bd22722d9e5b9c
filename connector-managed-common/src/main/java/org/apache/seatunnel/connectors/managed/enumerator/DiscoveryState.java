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

package org.apache.seatunnel.connectors.managed.enumerator;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The checkpointed state of a {@link DiscoveringSplitEnumerator}: the discovery cursor, whether
 * discovery is finished, and the splits discovered or handed back but not yet assigned. The cursor
 * and the pending splits are taken together, so a restore neither discovers a pending split again
 * nor misses one the cursor already passed. Immutable.
 */
public final class DiscoveryState<SplitT, CursorT> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final CursorT cursor;
    private final boolean finished;
    private final List<SplitT> pending;

    public DiscoveryState(CursorT cursor, boolean finished, Collection<SplitT> pending) {
        this.cursor = cursor;
        this.finished = finished;
        this.pending = Collections.unmodifiableList(new ArrayList<>(pending));
    }

    /** A fresh job's state: nothing discovered yet, discovery starts at {@code cursor}. */
    public static <S, C> DiscoveryState<S, C> initial(C cursor) {
        return new DiscoveryState<>(cursor, false, Collections.<S>emptyList());
    }

    public CursorT cursor() {
        return cursor;
    }

    public boolean finished() {
        return finished;
    }

    public List<SplitT> pending() {
        return pending;
    }

    @Override
    public String toString() {
        return "DiscoveryState{cursor="
                + cursor
                + ", finished="
                + finished
                + ", pending="
                + pending.size()
                + '}';
    }
}
