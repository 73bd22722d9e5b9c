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

package org.apache.seatunnel.managed.testkit.conformance;

/**
 * The rules of the Lane A reader contract and of the enumerator contract that the conformance
 * suites check; every failure names one. Immutable.
 */
public enum ConformanceRule {
    READS_FIXTURE_TO_END(
            "a reader given every fixture split and no-more-splits reaches END_OF_INPUT with each"
                    + " record once"),
    POLL_WITHIN_BUDGET("a poll turn returns within its deadline and honours shouldYield()"),
    NO_LOST_WAKEUP(
            "after NOTHING_AVAILABLE, isAvailable() completes when records can be polled again"),
    WAKEUP_THREAD_SAFE("wakeup() is idempotent, thread-safe and never blocks"),
    SNAPSHOT_EMIT_ATOMIC(
            "restoring any snapshot into a fresh reader yields exactly the records not yet"
                    + " emitted when it was taken"),
    SNAPSHOT_INCLUDES_NEW_SPLITS("a snapshot taken right after addSplits holds the added splits"),
    ADD_SPLITS_IDEMPOTENT("adding a split the reader already has changes nothing"),
    RESTORE_IN_FRESH_CLASS_LOADER("a snapshot restores in a fresh reader of a fresh class loader"),
    SERIALIZERS_ROUND_TRIP(
            "split, enumerator-state and event serializers round-trip and refuse malformed input"
                    + " with an IOException"),
    NO_BACKGROUND_STATE_CHANGE("no background thread changes what a snapshot holds"),
    CLOSE_LEAVES_NO_THREAD("close() stops every thread the reader started"),
    CALLBACK_IDEMPOTENT(
            "a repeated engine callback (checkpoint complete or aborted for the same id,"
                    + " no-more-splits, splits the reader already holds) changes neither the"
                    + " snapshot nor the records"),
    SOURCE_EVENTS_DECLARED(
            "a reader that consumes source events belongs to a source that declares an event"
                    + " serializer, and what an event changed survives a restore"),
    CONTEXT_CLASS_LOADER_RESTORED(
            "every reader call leaves the calling thread's context class loader as it found it"),
    WAKEUP_ENDS_BLOCKED_POLL(
            "a poll turn that waits for data returns promptly when another thread calls"
                    + " wakeup()"),
    ENUMERATOR_RESTORES_FROM_ANY_SNAPSHOT(
            "an enumerator restored from a snapshot taken after any step hands out every split not"
                    + " yet held by a reader, once"),
    ENUMERATOR_REASSIGNS_SPLITS_BACK(
            "splits handed back after a reader failure go out again, and the whole fixture is"
                    + " handed out once"),
    ENUMERATOR_ANY_REGISTRATION_ORDER(
            "readers registering in any order, before or after run(), get the whole fixture once"),
    ENUMERATOR_CURSOR_MONOTONIC(
            "the discovery cursor in successive snapshots never goes backwards, across restores"
                    + " too"),
    ENUMERATOR_NO_DUPLICATE_ASSIGNMENT(
            "no split is assigned while a reader holds it (across readers and over time; a split"
                    + " handed back may go out again)"),
    ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE(
            "no-more-splits reaches a reader only when nothing more will be assigned to it, and"
                    + " every reader of a bounded source gets it");

    private final String description;

    ConformanceRule(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
