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

package org.apache.seatunnel.engine.managed.e2e;

/** The job HOCON the end-to-end tests submit: a managed FakeSource into the collecting sink. */
final class ManagedJobs {
    private ManagedJobs() {}

    /**
     * A streaming job (p=2, checkpoint every second) whose source is {@code ManagedFake} named
     * through the Managed source under {@code jobName}, with extra source options (each line ending
     * in a newline), into {@code ManagedCollect} under {@code runId}.
     */
    static String streaming(String jobName, String sourceOptions, String runId) {
        return "env {\n"
                + "  job.mode = \"STREAMING\"\n"
                + "  parallelism = 2\n"
                + "  checkpoint.interval = 1000\n"
                + "}\n"
                + "source {\n"
                + "  Managed {\n"
                + "    connector = \"ManagedFake\"\n"
                + "    job-name = \""
                + jobName
                + "\"\n"
                + sourceOptions
                + "  }\n"
                + "}\n"
                + "sink {\n"
                + "  ManagedCollect {\n"
                + "    run.id = \""
                + runId
                + "\"\n"
                + "  }\n"
                + "}\n";
    }
}
