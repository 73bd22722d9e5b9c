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

package org.apache.seatunnel.engine.managed.source.fault;

/**
 * What a test installs to inject faults into the shipped runtime: the class the system property
 * {@value FaultSeam#PROPERTY} names, instantiated once when {@link FaultSeam} is first used. No
 * implementation ships.
 *
 * <p>Threading: called from every thread that passes a {@link FaultSite} (the coordinator loop, the
 * sender thread, operation threads, reader task threads); implementations must be thread-safe and
 * must not block.
 */
public interface FaultInjection {

    /**
     * What the runtime does at {@code site} this time. Must answer {@link FaultAction#PROCEED} or
     * an action the site {@link FaultSite#allows}; anything else is treated as PROCEED.
     *
     * @param jobId the job the event belongs to (0 where the site does not know it)
     * @param subtask the reader subtask it concerns, or -1
     * @param detail what passes there (a command kind, a checkpoint id), for the test's filter
     */
    FaultAction at(FaultSite site, long jobId, int subtask, String detail);

    /**
     * Carries out a {@link FaultAction#STALL} at {@code site}: returns when the stall is over (the
     * test's bound, or a release). Called on the thread that passes the site, so the runtime itself
     * never waits on its own for a fault.
     */
    void hold(FaultSite site) throws InterruptedException;
}
