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
/**
 * The reader half of STIP-31: the bounded {@link
 * org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox} that operation threads admit
 * commands into, the {@link org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop} that
 * a host drives one iteration at a time on the task's own thread, with its {@link
 * org.apache.seatunnel.engine.managed.source.reader.CheckpointCutGate}, and the {@link
 * org.apache.seatunnel.engine.managed.source.reader.ReaderAttempt} that puts them together for one
 * reader attempt (local signals, snapshot handover, registration and acknowledgements through a
 * {@link org.apache.seatunnel.engine.managed.source.reader.ReaderUplink}), driven alike by the Zeta
 * host and the fault-injection world, and the {@link
 * org.apache.seatunnel.engine.managed.source.reader.ReaderDriver} that decides what one engine call
 * does with the loop. Nothing here knows about Zeta or Hazelcast.
 *
 * <p>The mailbox keeps admission, capacity, dedup and the ring, whose elements are {@link
 * org.apache.seatunnel.engine.managed.source.reader.MailboxEntry MailboxEntries}: a remote command
 * wrapping its admitted wire envelope, or a barrier, checkpoint notice or graceful close the
 * reader's own member posts, which carries no envelope. The barrier signals and the availability
 * flag other threads raise sit beside it. The loop keeps the iteration and the lifecycle; applying
 * commands, the barrier cut, the poll turn, schema-change glue and failure classification are its
 * parts, all on the loop's driving thread.
 *
 * <p>"Hazard N" and "invariant N" in this package's comments are numbered as in {@code
 * docs/en/architecture.md}.
 */
package org.apache.seatunnel.engine.managed.source.reader;
