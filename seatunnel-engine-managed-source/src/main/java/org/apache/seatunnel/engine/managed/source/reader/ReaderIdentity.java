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

import java.util.Objects;

/**
 * Who a reader attempt is, in the words an operator searches logs for: the connector's plugin name,
 * the job's id and name, and the subtask. Immutable; given by the host so that the loop names a
 * reader in its warnings without knowing the engine.
 *
 * <p>Threading: immutable, any thread.
 */
public final class ReaderIdentity {
    private final String connector;
    private final long jobId;
    private final String jobName;
    private final int subtask;

    public ReaderIdentity(String connector, long jobId, String jobName, int subtask) {
        this.connector = Objects.requireNonNull(connector, "connector");
        this.jobId = jobId;
        this.jobName = jobName == null ? "" : jobName;
        this.subtask = subtask;
    }

    /** A reader whose host names no connector or job (test drivers, benchmarks). */
    public static ReaderIdentity unnamed(long jobId, int subtask) {
        return new ReaderIdentity("unnamed", jobId, "", subtask);
    }

    public String connector() {
        return connector;
    }

    public long jobId() {
        return jobId;
    }

    public String jobName() {
        return jobName;
    }

    public int subtask() {
        return subtask;
    }

    /** For log lines: {@code connector X, job NAME (ID), subtask N}. */
    @Override
    public String toString() {
        return "connector "
                + connector
                + ", job "
                + (jobName.isEmpty() ? "" : jobName + " ")
                + "("
                + jobId
                + "), subtask "
                + subtask;
    }
}
