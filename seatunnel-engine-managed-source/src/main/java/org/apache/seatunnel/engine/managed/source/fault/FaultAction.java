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

/** What the runtime does at a {@link FaultSite}: what each means there is in its javadoc. */
public enum FaultAction {
    /** Go on as in production: what every site does without an installed injection. */
    PROCEED,
    /** The message or callback is dropped. */
    LOSE,
    /** It happens twice. */
    DUPLICATE,
    /** It happens later ({@link FaultSeam#DELAY_MILLIS}). */
    DELAY,
    /** It happens now and once more later, behind what followed it. */
    REORDER,
    /** The component fails there with an {@link InjectedFaultException}. */
    CRASH,
    /** It is held back until the injection's {@link FaultInjection#hold} returns. */
    STALL,
    /** The mailbox answers as if it were full. */
    RETRY_LATER
}
