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

import com.hazelcast.client.config.ClientConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A SeaTunnel 2.3.8 cluster of separate member processes for tests, started and stopped through
 * {@code tools/cluster/cluster.sh}: the same home (stock jars from Maven Central with the plugin
 * distribution unpacked over it, as docs/en/install.md says) and the same member configs an
 * operator gets from that script.
 *
 * <p>Threading: one test thread; {@link #close} may run from a JVM shutdown hook.
 *
 * <p>Loopback only: members bind 127.0.0.1 and find each other by a fixed member list; each member
 * has its own folder ({@code seatunnel.yaml}, {@code hazelcast.yaml}, {@code member.log}, {@code
 * pid}) under the home's {@code clusters/<name>/m<i>}.
 */
public final class SeaTunnelProcessCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SeaTunnelProcessCluster.class);
    private static final long SCRIPT_TIMEOUT_SECONDS = 180;
    private static Path assembledHome;

    private final String name;
    private final int members;
    private final int basePort;
    private boolean closed;

    private SeaTunnelProcessCluster(String name, int members, int basePort) {
        this.name = name;
        this.members = members;
        this.basePort = basePort;
    }

    /**
     * Starts {@code members} member processes and returns once every member's log shows the full
     * member list. {@code managedSection} is each member's {@code managed-source} section, indented
     * for {@code seatunnel.engine} (4 spaces before {@code managed-source:}).
     */
    public static SeaTunnelProcessCluster start(
            String name, int members, int basePort, String managedSection) throws IOException {
        Path home = home();
        Path fragment = Files.createTempFile(home, "managed-" + name, ".yaml");
        Files.write(fragment, managedSection.getBytes(StandardCharsets.UTF_8));
        SeaTunnelProcessCluster c = new SeaTunnelProcessCluster(name, members, basePort);
        long t0 = System.nanoTime();
        script(
                "start",
                "--home",
                home.toString(),
                "--name",
                name,
                "--members",
                String.valueOf(members),
                "--base-port",
                String.valueOf(basePort),
                "--managed",
                fragment.toString());
        LOG.info(
                "Cluster {} of {} member processes formed in {} ms",
                name,
                members,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        Runtime.getRuntime().addShutdownHook(new Thread(c::close, "stop-" + name));
        return c;
    }

    /** The SeaTunnel home all test clusters of this build share (assembled once per JVM). */
    public static synchronized Path home() throws IOException {
        if (assembledHome == null) {
            Path home = repo().resolve("seatunnel-managed-e2e/target/cluster-home");
            script("home", "--home", home.toString());
            assembledHome = home;
        }
        return assembledHome;
    }

    public int restPort(int member) {
        return basePort + member - 1;
    }

    public Path memberDir(int member) throws IOException {
        return home().resolve("clusters").resolve(name).resolve("m" + member);
    }

    public Path seatunnelYaml(int member) throws IOException {
        return memberDir(member).resolve("seatunnel.yaml");
    }

    public long pid(int member) throws IOException {
        return Long.parseLong(
                new String(
                                Files.readAllBytes(memberDir(member).resolve("pid")),
                                StandardCharsets.UTF_8)
                        .trim());
    }

    public boolean alive(int member) throws IOException {
        return ProcessHandle.of(pid(member)).map(ProcessHandle::isAlive).orElse(false);
    }

    public String memberLog(int member) throws IOException {
        return new String(
                Files.readAllBytes(memberDir(member).resolve("member.log")),
                StandardCharsets.UTF_8);
    }

    /** Kills a member's JVM the hard way (SIGKILL): no shutdown hook, no goodbye to the cluster. */
    public void kill9(int member) throws Exception {
        Optional<ProcessHandle> p = ProcessHandle.of(pid(member));
        if (p.isPresent()) {
            p.get().destroyForcibly();
            // SIGKILL is asynchronous: a restart right after it would find the member running.
            p.get().onExit().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Starts a member that stopped or was killed again, with the config it had, and returns once it
     * is back in the cluster ({@code cluster.sh restart}). Its previous log is kept as {@code
     * member.log.N}.
     */
    public void restart(int member) throws IOException {
        script(
                "restart",
                String.valueOf(member),
                "--home",
                home().toString(),
                "--name",
                name,
                "--members",
                String.valueOf(members),
                "--base-port",
                String.valueOf(basePort));
    }

    /** A client config for SeaTunnel's Java client: this cluster's name and members, loopback. */
    public ClientConfig clientConfig() {
        ClientConfig config = new ClientConfig();
        config.setClusterName(name);
        List<String> addresses = new ArrayList<>();
        for (int i = 1; i <= members; i++) {
            addresses.add("127.0.0.1:" + restPort(i));
        }
        config.getNetworkConfig().setAddresses(addresses);
        config.setProperty("hazelcast.logging.type", "slf4j");
        return config;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // A test timeout interrupts this thread; stopping must still happen, so the interrupt is
        // put back only afterwards.
        boolean interrupted = Thread.interrupted();
        try {
            script("stop", "--home", home().toString(), "--name", name);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not stop cluster {} cleanly; killing its members", name, e);
        } finally {
            for (int m = 1; m <= members; m++) {
                try {
                    ProcessHandle.of(pid(m)).ifPresent(ProcessHandle::destroyForcibly);
                } catch (IOException | RuntimeException e) {
                    LOG.warn("No pid for member {} of cluster {}", m, name, e);
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static Path repo() {
        Path p = Paths.get("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("tools/cluster/cluster.sh"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("tools/cluster/cluster.sh not found above the cwd");
        }
        return p;
    }

    private static void script(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("bash");
        cmd.add(repo().resolve("tools/cluster/cluster.sh").toString());
        for (String a : args) {
            cmd.add(a);
        }
        Path log = Files.createTempFile("cluster-sh-", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // How soon a killed member is declared dead: cluster.sh's 10 s unless a runner asks for
        // Hazelcast's own defaults.
        for (String v : new String[] {"MAX_NO_HEARTBEAT_SECONDS", "HEARTBEAT_INTERVAL_SECONDS"}) {
            String value = System.getProperty("cluster." + v.toLowerCase(java.util.Locale.ROOT));
            if (value != null) {
                pb.environment().put(v, value);
            }
        }
        Process p = pb.start();
        try {
            if (!p.waitFor(SCRIPT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(
                        "cluster.sh " + args[0] + " timed out: " + read(log));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IllegalStateException("interrupted", e);
        }
        String out = read(log);
        Files.deleteIfExists(log);
        if (p.exitValue() != 0) {
            throw new IllegalStateException("cluster.sh " + String.join(" ", args) + ":\n" + out);
        }
        LOG.info("cluster.sh {}: {}", args[0], out.trim());
    }

    private static String read(Path log) throws IOException {
        return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
    }
}
