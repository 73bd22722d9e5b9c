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

/** Thrown (or passed as a transport failure cause) where a scheduled fault fires. Immutable. */
public final class InjectedFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final FaultPoint point;
    private final FaultAction action;

    public InjectedFault(FaultPoint point, FaultAction action, String where) {
        super(
                "injected "
                        + action
                        + " at fault point "
                        + point.number()
                        + " "
                        + point
                        + " ("
                        + where
                        + ")");
        this.point = point;
        this.action = action;
    }

    public FaultPoint point() {
        return point;
    }

    public FaultAction action() {
        return action;
    }

    /** The injected fault in {@code t}'s cause chain, or null. */
    public static InjectedFault find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof InjectedFault) {
                return (InjectedFault) c;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }
}
