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
 * What one {@link ReaderEventLoop#runOnce()} iteration leaves behind, for the host to act on: a
 * per-call answer, not a state (the attempt's state is its {@link ReaderLifecycle}).
 */
public enum LoopStatus {
    /** Work was done or more is ready: call again without waiting. */
    BUSY,
    /** Nothing to do until a command or availability signal arrives: the host may wait. */
    IDLE,
    /** End of input reported; controls and barriers still run, no more poll turns. */
    FINISHED,
    /** A terminal signal ended the attempt; see {@link ReaderEventLoop#terminalSignal()}. */
    TERMINATED
}
