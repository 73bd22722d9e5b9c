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

package org.apache.seatunnel.engine.managed.source.concurrent;

/**
 * The one thread allowed to touch a confined object, checked with a single reference compare.
 *
 * <p>Threading: {@link #bind} and {@link #unbind} are called by the owner when it starts and stops
 * running the object (a loop binds when it claims its drain); {@link #check} and {@link #isOwner}
 * may be called from any thread. The owner reference is volatile so another thread never sees a
 * stale owner after a hand-over.
 */
public final class OwnerThread {

    private final String role;
    private volatile Thread owner;

    /**
     * @param role what the owner is, for the error text ("reader loop", "coordinator loop")
     */
    public OwnerThread(String role) {
        this.role = role;
    }

    /** Makes the calling thread the owner until {@link #unbind}. */
    public void bind() {
        owner = Thread.currentThread();
    }

    /** Forgets the owner; {@link #check} then fails on every thread until the next bind. */
    public void unbind() {
        owner = null;
    }

    /** Whether the calling thread is the owner. */
    public boolean isOwner() {
        return owner == Thread.currentThread();
    }

    /**
     * Fails when the calling thread is not the owner.
     *
     * @param what the operation, for the error text
     * @throws IllegalStateException off the owner thread
     */
    public void check(String what) {
        Thread current = Thread.currentThread();
        if (owner != current) {
            throw new IllegalStateException(
                    what + " may only be called on the " + role + ", not on " + current.getName());
        }
    }

    @Override
    public String toString() {
        Thread t = owner;
        return "OwnerThread{" + role + ", owner=" + (t == null ? "none" : t.getName()) + '}';
    }
}
