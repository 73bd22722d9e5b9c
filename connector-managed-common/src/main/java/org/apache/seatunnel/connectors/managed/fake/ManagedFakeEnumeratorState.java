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

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The enumerator's checkpointed state: the splits not yet handed to a reader, with their offsets.
 * Immutable.
 */
public final class ManagedFakeEnumeratorState implements Serializable {

    private static final long serialVersionUID = 1L;

    private final List<ManagedFakeSplit> pendingSplits;

    public ManagedFakeEnumeratorState(List<ManagedFakeSplit> pendingSplits) {
        this.pendingSplits = Collections.unmodifiableList(new ArrayList<>(pendingSplits));
    }

    public List<ManagedFakeSplit> pendingSplits() {
        return pendingSplits;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ManagedFakeEnumeratorState
                && pendingSplits.equals(((ManagedFakeEnumeratorState) o).pendingSplits);
    }

    @Override
    public int hashCode() {
        return pendingSplits.hashCode();
    }

    @Override
    public String toString() {
        return "ManagedFakeEnumeratorState" + pendingSplits;
    }
}
