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

import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;

/**
 * What a reader attempt offered its coordinator at registration: the credit window of its mailbox
 * (commands and payload bytes of the coordinator's ordered commands admitted at a time) and its
 * split window (splits it wants to hold unread at most; {@link RegistrationPayload#NO_SPLIT_WINDOW}
 * when it does not count them). Immutable; any thread.
 */
final class ReaderWindow {
    /** A registration that offers nothing: the default mailbox's capacity, no split window. */
    static final ReaderWindow DEFAULT =
            new ReaderWindow(
                    CoordinatorEventLoop.DEFAULT_WINDOW_COMMANDS,
                    CoordinatorEventLoop.DEFAULT_WINDOW_BYTES,
                    RegistrationPayload.NO_SPLIT_WINDOW);

    final int commands;
    final long bytes;
    final int splits;

    ReaderWindow(int commands, long bytes, int splits) {
        this.commands = commands;
        this.bytes = bytes;
        this.splits = splits;
    }
}
