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

package org.apache.seatunnel.engine.managed.source.zeta.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.common.constants.JobMode;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;

class EngineBindingTest {

    @Test
    void theRunningEngineGetsTheBindingBuiltForItsVersion() {
        assertEquals(EngineVersion.running(), EngineBinding.running().builtFor());
        assertEquals("2.3.8", EngineBinding.forVersion("2.3.8").builtFor());
        assertNull(EngineBinding.forVersion("2.3.9"), "no binding was built for 2.3.9");
        assertNull(EngineBinding.forVersion(EngineVersion.UNKNOWN));
    }

    @Test
    void aContextOfAnotherEngineIsRefusedNamingWhatTheBindingNeeds() {
        EngineBinding b = EngineBinding.forVersion("2.3.8");
        IllegalStateException reader =
                assertThrows(
                        IllegalStateException.class,
                        () -> b.readerTask(Mockito.mock(SourceReader.Context.class)));
        assertTrue(reader.getMessage().contains("Zeta 2.3.8 reader context"), reader.getMessage());
        IllegalStateException enumerator =
                assertThrows(
                        IllegalStateException.class,
                        () -> b.enumeratorTask(Mockito.mock(SourceSplitEnumerator.Context.class)));
        assertTrue(enumerator.getMessage().contains("Zeta 2.3.8 enumerator context"));
        assertNull(b.outputQueues(new Object()), "a foreign collector has no visible queue");
    }

    @Test
    void aBatchJobCheckpointsOnlyWithAnIntervalAndAStreamingJobAlways() {
        assertFalse(Zeta238Binding.checkpointsEnabled(job(JobMode.BATCH, false)));
        assertTrue(Zeta238Binding.checkpointsEnabled(job(JobMode.BATCH, true)));
        assertTrue(Zeta238Binding.checkpointsEnabled(job(JobMode.STREAMING, false)));
    }

    @Test
    void theCheckpointIntervalIsTheJobsElseTheEngines() {
        assertEquals(1000L, Zeta238Binding.checkpointIntervalMillis(job(JobMode.BATCH, true), 30));
        assertEquals(
                30L, Zeta238Binding.checkpointIntervalMillis(job(JobMode.STREAMING, false), 30));
        JobConfig asText = job(JobMode.STREAMING, false);
        asText.getEnvOptions().put("checkpoint.interval", " 2500 ");
        assertEquals(2500L, Zeta238Binding.checkpointIntervalMillis(asText, 30));
        JobConfig garbled = job(JobMode.STREAMING, false);
        garbled.getEnvOptions().put("checkpoint.interval", "often");
        assertEquals(
                0L, Zeta238Binding.checkpointIntervalMillis(garbled, 30), "unknown, not a guess");
    }

    @Test
    void theEnginesDefaultJobNamesNameNoJob() {
        EngineBinding b = EngineBinding.forVersion("2.3.8");
        assertTrue(b.isDefaultJobName("SeaTunnel"));
        assertTrue(b.isDefaultJobName("SeaTunnel_Job"));
        assertFalse(b.isDefaultJobName("orders"));
    }

    private static JobConfig job(JobMode mode, boolean interval) {
        JobConfig config = new JobConfig();
        JobContext context = new JobContext();
        context.setJobMode(mode);
        config.setJobContext(context);
        Map<String, Object> env = new HashMap<>();
        if (interval) {
            env.put("checkpoint.interval", 1000L);
        }
        config.setEnvOptions(env);
        return config;
    }
}
