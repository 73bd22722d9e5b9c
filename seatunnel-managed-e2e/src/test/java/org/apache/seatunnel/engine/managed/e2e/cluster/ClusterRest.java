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

package org.apache.seatunnel.engine.managed.e2e.cluster;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * SeaTunnel 2.3.8's REST API on a member's Hazelcast port, parsed with jackson-databind.
 *
 * <p>Threading: stateless apart from the immutable port; any thread.
 */
public final class ClusterRest {
    static final ObjectMapper JSON = new ObjectMapper();
    private final int port;

    public ClusterRest(int port) {
        this.port = port;
    }

    /** {@code POST /hazelcast/rest/maps/submit-job}: the job as JSON; returns the job id. */
    public long submit(JsonNode job) throws IOException {
        return submit(job, "");
    }

    /** Submit with query parameters, e.g. {@code ?jobId=1&isStartWithSavePoint=true}. */
    public long submit(JsonNode job, String query) throws IOException {
        JsonNode answer = post("/hazelcast/rest/maps/submit-job" + query, job);
        if (!answer.has("jobId")) {
            throw new IOException("submit-job refused: " + answer);
        }
        return answer.get("jobId").asLong();
    }

    public JsonNode jobInfo(long jobId) throws IOException {
        return get("/hazelcast/rest/maps/job-info/" + jobId);
    }

    /** Polls {@code job-info} until the job FINISHED or FAILED, within {@code bound}. */
    public JsonNode awaitEnd(long jobId, Duration bound) {
        AtomicReference<JsonNode> info = new AtomicReference<>();
        await().atMost(bound)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> {
                            info.set(jobInfo(jobId));
                            String s = info.get().path("jobStatus").asText();
                            return s.equals("FINISHED") || s.equals("FAILED");
                        });
        return info.get();
    }

    public JsonNode runningJobs() throws IOException {
        return get("/hazelcast/rest/maps/running-jobs");
    }

    /** {@code POST .../stop-job}, with a savepoint when asked. */
    public JsonNode stop(long jobId, boolean savepoint) throws IOException {
        return post(
                "/hazelcast/rest/maps/stop-job",
                JSON.createObjectNode().put("jobId", jobId).put("isStopWithSavePoint", savepoint));
    }

    /**
     * What Prometheus scrapes: {@code /hazelcast/rest/instance/metrics}, the text format 0.0.4
     * ({@code /openmetrics} is OpenMetrics text served as text/plain, which Prometheus rejects).
     */
    public String prometheusMetrics() throws IOException {
        return new String(
                call("GET", "/hazelcast/rest/instance/metrics", null), StandardCharsets.UTF_8);
    }

    public JsonNode get(String path) throws IOException {
        return JSON.readTree(call("GET", path, null));
    }

    public JsonNode post(String path, JsonNode body) throws IOException {
        return JSON.readTree(call("POST", path, JSON.writeValueAsBytes(body)));
    }

    private byte[] call(String method, String path, byte[] body) throws IOException {
        HttpURLConnection c =
                (HttpURLConnection) new URL("http://127.0.0.1:" + port + path).openConnection();
        c.setRequestMethod(method);
        c.setConnectTimeout(10_000);
        c.setReadTimeout(30_000);
        if (body != null) {
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", "application/json");
            try (OutputStream out = c.getOutputStream()) {
                out.write(body);
            }
        }
        int code = c.getResponseCode();
        try (InputStream in = code < 400 ? c.getInputStream() : c.getErrorStream()) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            if (in != null) {
                in.transferTo(b);
            }
            if (code >= 400) {
                throw new IOException(method + " " + path + " -> " + code + ": " + b);
            }
            return b.toByteArray();
        } finally {
            c.disconnect();
        }
    }
}
