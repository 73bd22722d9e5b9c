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

package org.apache.seatunnel.api.source.managed.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.Cancellable;

/**
 * The per-key overlap rule of {@code CoordinatorScheduler.callAsync}, in one place for both
 * schedulers: at most one call of a key is active; with {@link
 * AsyncTaskOptions.OverlapPolicy#REJECT} a call whose key is active is refused, otherwise it waits
 * behind the active one and a newer call replaces it (its input is fresher).
 *
 * <p>Threading: not thread-safe; its scheduler confines it (Lane A: the coordinator loop; Lane B:
 * under the scheduler's lock). The slots never run or cancel a call themselves except the one a
 * newer call replaces; the scheduler starts what {@link #admit} and {@link #release} hand it.
 *
 * @param <K> the key
 * @param <C> the call
 */
public final class KeyedCallSlots<K, C extends Cancellable> {

    /** What {@link #admit} decided. */
    public enum Admission {
        /** The key was free: the call is active now and the scheduler starts it. */
        START,
        /** The key is active and the call asked to be refused then. */
        REJECTED,
        /** The call waits behind the active one. */
        WAITING,
        /** The call waits behind the active one and replaced (and cancelled) an older waiter. */
        REPLACED
    }

    private final Map<K, C> active = new HashMap<>();
    private final Map<K, C> waiting = new HashMap<>();

    /** Decides what becomes of {@code call}; a call it replaces is cancelled. */
    public Admission admit(K key, C call, AsyncTaskOptions.OverlapPolicy policy) {
        if (!active.containsKey(key)) {
            active.put(key, call);
            return Admission.START;
        }
        if (policy == AsyncTaskOptions.OverlapPolicy.REJECT) {
            return Admission.REJECTED;
        }
        C before = waiting.put(key, call);
        return before != null && before.cancel() ? Admission.REPLACED : Admission.WAITING;
    }

    /**
     * Frees the key {@code call} holds, if it is the active one, and returns the call waiting
     * behind it, now active, for the scheduler to start; null when none is to start (the key was
     * not this call's, nothing waited, or the waiting call was cancelled meanwhile).
     */
    public C release(K key, C call) {
        if (active.get(key) != call) {
            return null;
        }
        active.remove(key);
        C next = waiting.remove(key);
        if (next == null || next.isCancelled()) {
            return null;
        }
        active.put(key, next);
        return next;
    }

    /** Whether a call of {@code key} is active. */
    public boolean isActive(K key) {
        return active.containsKey(key);
    }

    /** Forgets every call and returns the waiting ones, which never started, for cancelling. */
    public List<C> clearAndTakeWaiting() {
        List<C> out = new ArrayList<>(waiting.values());
        waiting.clear();
        active.clear();
        return out;
    }

    /** Forgets every call and returns the active and waiting ones, for cancelling. */
    public List<C> clearAndTakeAll() {
        List<C> out = new ArrayList<>(active.values());
        out.addAll(waiting.values());
        active.clear();
        waiting.clear();
        return out;
    }
}
