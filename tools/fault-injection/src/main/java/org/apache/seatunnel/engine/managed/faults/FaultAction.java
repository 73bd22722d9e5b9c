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

package org.apache.seatunnel.engine.managed.faults;

/** What an injected fault does at its point; each {@link FaultPoint} allows a subset. */
public enum FaultAction {
    /** The message or callback never arrives (the sender sees a transport failure if it waits). */
    LOSE,
    /** The message arrives twice (at-least-once transport); the second copy's answer is dropped. */
    DUPLICATE,
    /** The message or callback is held back and delivered later, in an order the run chooses. */
    DELAY,
    /** The reader mailbox answers RETRY_LATER without admitting (capacity exhausted). */
    RETRY_LATER,
    /** The task (or the coordinator) fails at this point; the job restores. */
    CRASH,
    /** The checkpoint can never complete, but the task keeps running (the checkpoint times out). */
    STALL
}
