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
 * A schema-change event the {@link SchemaChangeGate} refused: an illegal transition (an overlapping
 * change, a barrier inside the marking turn) or a failure the STIP makes fatal (the bound
 * checkpoint aborted or superseded, the trigger failed, the change outlived {@code
 * reader.schema-change-timeout}). The message names the current state, the request's epoch and the
 * bound checkpoint. The reader loop fails the attempt with {@code SCHEMA_CHANGE_FAILED}.
 */
public final class SchemaChangeRefusedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    SchemaChangeRefusedException(String message) {
        super(message);
    }

    SchemaChangeRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
