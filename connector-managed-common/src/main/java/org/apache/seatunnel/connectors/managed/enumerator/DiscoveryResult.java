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

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What one run of a {@link DiscoveringSplitEnumerator}'s discovery found: the new splits, the
 * cursor the next run starts from, and whether discovery is finished (a bounded source found its
 * last splits). Immutable; the cursor must not be changed after it was handed over.
 */
public final class DiscoveryResult<SplitT, CursorT> {
    private final List<SplitT> splits;
    private final CursorT cursor;
    private final boolean finished;

    private DiscoveryResult(Collection<SplitT> splits, CursorT cursor, boolean finished) {
        this.splits = Collections.unmodifiableList(new ArrayList<>(splits));
        this.cursor = cursor;
        this.finished = finished;
    }

    /** {@code splits} found; the next run starts at {@code next}; more may come later. */
    public static <S, C> DiscoveryResult<S, C> more(Collection<S> splits, C next) {
        return new DiscoveryResult<>(Objects.requireNonNull(splits, "splits"), next, false);
    }

    /** {@code splits} are the last ones: discovery ends (readers end once theirs are read). */
    public static <S, C> DiscoveryResult<S, C> last(Collection<S> splits, C next) {
        return new DiscoveryResult<>(Objects.requireNonNull(splits, "splits"), next, true);
    }

    public List<SplitT> splits() {
        return splits;
    }

    public CursorT cursor() {
        return cursor;
    }

    public boolean finished() {
        return finished;
    }
}
