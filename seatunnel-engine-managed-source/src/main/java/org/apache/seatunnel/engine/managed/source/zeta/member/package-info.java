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
 * The member runtime of Lane A: one {@link
 * org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceMemberService} per SeaTunnel
 * member, created by Hazelcast at node start (its service descriptor provider), which owns the
 * member-wide resources every Lane A task of the member shares: the executors (coordinator loops,
 * async workers, sender, watchdog), the core's sender and receiving adapter over Hazelcast
 * addresses, the worker mailbox budget, the registries of mailboxes and coordinator endpoints, the
 * epoch store, the barrier announcer, interrupt checks and member telemetry; plus the operator's
 * settings ({@code seatunnel.yaml}'s {@code managed-source} section) it reads at start.
 *
 * <p>Threading: created and closed by Hazelcast; every type here says which thread uses it. It
 * answers the transport's operations as their {@code InboundRouter}.
 */
package org.apache.seatunnel.engine.managed.source.zeta.member;
