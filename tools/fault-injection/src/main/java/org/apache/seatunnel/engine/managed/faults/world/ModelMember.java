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

package org.apache.seatunnel.engine.managed.faults.world;

import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;
import org.apache.seatunnel.engine.managed.source.transport.CommandSender;
import org.apache.seatunnel.engine.managed.source.transport.SourceCommandTransportAdapter;
import org.apache.seatunnel.engine.managed.source.transport.TransportMetrics;
import org.apache.seatunnel.engine.managed.source.transport.TransportTargets;

/**
 * One member of the model cluster, with what a Zeta member's managed-source service holds: the
 * registry of its readers' mailboxes and its coordinators, the receiving adapter, and one command
 * sender whose thread the run steps. Members outlive restores, as a member's service outlives the
 * jobs it runs, so a stale send still reaches the attempts that replaced its target.
 *
 * <p>Threading: confined to the run's thread.
 */
final class ModelMember {
    /** Payloads and frames the model's adapters accept, as {@code command.max-payload-bytes}. */
    static final int MAX_PAYLOAD_BYTES = 1 << 16;

    /** {@code transport.command-batch-max-commands}: small, so batches are often cut. */
    static final int BATCH_MAX_COMMANDS = 3;

    /** The retry hint of an answer from no target yet. */
    static final long NO_TARGET_RETRY_MILLIS = 10;

    final int id;
    final TransportTargets<Integer> targets = new TransportTargets<>();
    final TransportMetrics metrics = new TransportMetrics();
    final SourceCommandTransportAdapter<Integer> adapter;
    final ManualSenderScheduler scheduler;
    final CommandSender<Integer> sender;

    ModelMember(int id, ManualTime time, ModelNetwork network, RetryPolicy retry, int maxQueued) {
        this.id = id;
        this.adapter =
                new SourceCommandTransportAdapter<>(
                        targets, MAX_PAYLOAD_BYTES, NO_TARGET_RETRY_MILLIS, metrics);
        this.scheduler = new ManualSenderScheduler(time);
        this.sender =
                new CommandSender<>(
                        network.invokerFor(id),
                        scheduler,
                        retry,
                        maxQueued,
                        BATCH_MAX_COMMANDS,
                        new TransportMetrics(),
                        time::nowMillis);
    }
}
