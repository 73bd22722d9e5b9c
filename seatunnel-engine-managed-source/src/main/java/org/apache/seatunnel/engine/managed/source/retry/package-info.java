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
 * The one retry and backoff layer of Lane A: {@link
 * org.apache.seatunnel.engine.managed.source.retry.RetryPolicy} (the {@code retry.*} settings) and
 * its per-command {@link org.apache.seatunnel.engine.managed.source.retry.RetryPolicy.Backoff}. The
 * coordinator's resends ({@code OutboundCommands}) and the transport's sends ({@code
 * CommandSender}) compute every delay and reach every bound through it; a command is retried by
 * exactly one of them (the coordinator sends its commands through the transport with a single
 * attempt).
 *
 * <p>Threading: immutable policies; a backoff belongs to the one thread that retries its command.
 */
package org.apache.seatunnel.engine.managed.source.retry;
