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

package org.apache.seatunnel.managed.kafkabroker;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import kafka.Kafka;
import kafka.tools.StorageTool;

/**
 * Starts one combined KRaft node (broker and controller) on 127.0.0.1 in this JVM: formats the log
 * directory if it is new, then runs the broker until the process is stopped.
 *
 * <p>Usage: {@code KafkaTestBrokerMain <dataDir> <brokerPort> <controllerPort>}. The same arguments
 * restart a stopped broker with its data, which tests use to stop a broker mid-job.
 *
 * <p>Threading: the main thread runs Kafka's own startup and waits for its shutdown.
 */
public final class KafkaTestBrokerMain {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qk";

    private KafkaTestBrokerMain() {}

    public static void main(String[] args) throws IOException {
        Path dir = Paths.get(args[0]);
        int port = Integer.parseInt(args[1]);
        int controllerPort = Integer.parseInt(args[2]);
        Files.createDirectories(dir);
        Path logs = dir.resolve("logs");
        Path config = dir.resolve("server.properties");
        try (Writer w = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            w.write("process.roles=broker,controller\n");
            w.write("node.id=1\n");
            w.write("controller.quorum.voters=1@127.0.0.1:" + controllerPort + "\n");
            w.write(
                    "listeners=PLAINTEXT://127.0.0.1:"
                            + port
                            + ",CONTROLLER://127.0.0.1:"
                            + controllerPort
                            + "\n");
            w.write("advertised.listeners=PLAINTEXT://127.0.0.1:" + port + "\n");
            w.write("controller.listener.names=CONTROLLER\n");
            w.write("inter.broker.listener.name=PLAINTEXT\n");
            w.write("listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT\n");
            w.write("log.dirs=" + logs.toAbsolutePath() + "\n");
            w.write("num.partitions=1\n");
            w.write("offsets.topic.replication.factor=1\n");
            w.write("offsets.topic.num.partitions=1\n");
            w.write("transaction.state.log.replication.factor=1\n");
            w.write("transaction.state.log.min.isr=1\n");
            w.write("group.initial.rebalance.delay.ms=0\n");
            w.write("auto.create.topics.enable=false\n");
            w.write("log.flush.interval.messages=1000000\n");
            w.write("socket.request.max.bytes=104857600\n");
        }
        if (!Files.exists(logs.resolve("meta.properties"))) {
            int code =
                    StorageTool.execute(
                            new String[] {
                                "format",
                                "-t",
                                CLUSTER_ID,
                                "-c",
                                config.toString(),
                                "--ignore-formatted"
                            },
                            System.out);
            if (code != 0) {
                throw new IllegalStateException("formatting " + logs + " failed: " + code);
            }
        }
        Kafka.main(new String[] {config.toString()});
    }
}
