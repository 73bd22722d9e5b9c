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

package org.apache.seatunnel.engine.managed.source.zeta;

import org.apache.seatunnel.engine.managed.source.reader.ReaderIdentity;
import org.apache.seatunnel.engine.managed.source.reader.SchemaChangeMark;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the Zeta binding maps the reader's schema-change sub-state onto Zeta 2.3.8's own mechanism.
 *
 * <p>Threading: stateless; called on the task thread that drives the reader loop.
 *
 * <p>Zeta 2.3.8 aligns a schema change with a checkpoint in {@code SourceFlowLifeCycle.collect}:
 * when {@code pollNext} returns with a mark in its {@code SeaTunnelSourceCollector}, the engine
 * latches a schema-change phase, asks the master for a {@code SCHEMA_CHANGE_BEFORE} or {@code
 * SCHEMA_CHANGE_AFTER} checkpoint (which suspends the pipeline's periodic checkpoints until the
 * after-checkpoint completed), stops calling {@code pollNext} until that checkpoint ended, and
 * fails the task if it is aborted or if a second mark arrives while one is in progress. The runtime
 * maps its states onto that path:
 *
 * <ul>
 *   <li>QUIESCING: the connector's mark goes through the poll turn to the engine's collector, the
 *       turn yields;
 *   <li>TRIGGER_REQUESTED: the host returns from {@code pollNext} right after that turn (no further
 *       turn in the same call), which is the engine's trigger;
 *   <li>WAITING_END: the loop binds the first barrier it takes after the trigger. All barriers from
 *       the mark on carry the same cut (no turn runs), so when a periodic checkpoint that was
 *       already in flight arrives before the engine's schema-change checkpoint, both hold the state
 *       at the mark; the engine still resumes {@code pollNext} only after its own one ended;
 *   <li>IDLE: the bound checkpoint's completion (delivered to the mailbox before the engine ends
 *       its phase) is applied before the next turn.
 * </ul>
 *
 * Schema-change events the connector collects reach the engine's collector unchanged: it updates
 * the row type it sizes rows with and forwards the event to the sink, which applies it in {@code
 * SinkWriter.applySchemaChange}.
 */
final class ZetaSchemaChange {
    private static final Logger LOG = LoggerFactory.getLogger(ZetaSchemaChange.class);

    private ZetaSchemaChange() {}

    static void requested(
            ReaderIdentity reader, long attemptId, SchemaChangeMark mark, long epoch) {
        LOG.info(
                "Lane A reader {} attempt {} marked a schema change ({}, epoch {}): returning to the"
                        + " engine, which triggers the schema-change checkpoint",
                reader,
                attemptId,
                mark,
                epoch);
    }
}
