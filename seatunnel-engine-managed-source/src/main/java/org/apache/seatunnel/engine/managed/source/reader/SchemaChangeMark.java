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

package org.apache.seatunnel.engine.managed.source.reader;

/**
 * Which checkpoint a connector asked for when it marked a schema change through its poll turn's
 * collector: SeaTunnel's {@code Collector.markSchemaChangeBeforeCheckpoint()} (a cut right before
 * the change events, so a restore replays them) or {@code markSchemaChangeAfterCheckpoint()} (a cut
 * right after them, once downstream has applied them).
 */
public enum SchemaChangeMark {
    BEFORE_CHECKPOINT,
    AFTER_CHECKPOINT
}
