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

package org.apache.seatunnel.managed.testkit.engine;

/**
 * What a savepoint request came to, as {@link EmbeddedZeta#savePointAndAwaitEnd} found it. The
 * engine's end status alone cannot tell the first and the last apart.
 */
public enum SavepointResult {
    /** The job ended {@code SAVEPOINT_DONE} on a completed savepoint: restore from it. */
    TAKEN,
    /** The job reached another end state (FINISHED, FAILED, CANCELED) first. */
    JOB_ENDED,
    /**
     * The engine refused the request and the job runs on: its tasks were not all ready (a pipeline
     * restoring) or its checkpoint coordinator was shutting down for a restore. Zeta 2.3.8 still
     * moved the job to {@code DOING_SAVEPOINT}, so it ends {@code SAVEPOINT_DONE} without a
     * savepoint, as below.
     */
    REFUSED,
    /**
     * Zeta 2.3.8 reported {@code SAVEPOINT_DONE}, but no savepoint completed: a failure while the
     * savepoint was pending restored the pipeline, which then ran to its end with the job still in
     * {@code DOING_SAVEPOINT}. Every row is committed and the stored state is the last regular
     * checkpoint, so a restore would replay what followed it, on either lane.
     */
    REPORTED_BUT_NOT_TAKEN,
    /**
     * The savepoint completed, but Zeta 2.3.8 stored it without a source's enumerator state, so a
     * restore from it fails in the engine ({@code SourceSplitEnumeratorTask.restoreState} meets a
     * null state) and the restored job restarts its pipeline until it stalls, on either lane. The
     * engine's pending checkpoint takes an acknowledgement off its waiting set before it records
     * that acknowledgement's state, with no lock around the two: when the enumerator's
     * acknowledgement and the last sink's arrive together, the checkpoint can complete, and be
     * written, between the two steps. See {@link EmbeddedZeta#assumeRestorable}.
     */
    TAKEN_WITHOUT_ENUMERATOR_STATE
}
