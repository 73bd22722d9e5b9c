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

package org.apache.seatunnel.engine.managed.source.coordinator;

/**
 * Receives failures the loop cannot handle itself (a command that threw, an async task whose policy
 * is {@code FAIL_COORDINATOR}, a protocol violation). The Zeta binding fails the pipeline, which
 * restores from the last checkpoint.
 *
 * <p>Threading: called on the coordinator loop; must not block and must not call back into the
 * enumerator.
 */
public interface CoordinatorFailureHandler {

    /**
     * @param where a bounded, fixed description of the failing step (a command type), never user
     *     data
     */
    void onFailure(String where, Throwable cause);
}
