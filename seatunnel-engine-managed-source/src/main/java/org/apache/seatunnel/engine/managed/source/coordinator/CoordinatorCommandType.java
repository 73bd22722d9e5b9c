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
 * Every kind of work the coordinator loop runs. The name is what a failure report names (bounded,
 * never user data).
 */
public enum CoordinatorCommandType {
    OPEN,
    CLOSE,
    REGISTER_READER,
    SPLIT_REQUEST,
    SPLITS_RETURNED,
    SOURCE_EVENT,
    SNAPSHOT,
    CHECKPOINT_COMPLETE,
    CHECKPOINT_ABORT,
    INCLUSION_REPORT,
    ASSIGNMENT_APPLIED,
    ADMISSION_RESULT,
    REDISPATCH,
    ASYNC_RESULT,
    ASYNC_TIMEOUT,
    SCHEDULER_TICK,
    /** An enumerator context call made off the loop, marshalled onto it. */
    ENUMERATOR_CALL
}
