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

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.apache.seatunnel.engine.server.SeaTunnelServer;

/**
 * The SeaTunnel Zeta version this runtime's engine binding was built for, and the one it runs in.
 * The binding reads and calls engine internals (task fields, checkpoint operations, Hazelcast
 * services) that SeaTunnel does not promise to keep, so on another engine version Lane A is refused
 * at planning with one clear reason instead of failing later inside a task.
 *
 * <p>Threading: immutable after class initialisation; any thread.
 */
public final class EngineVersion {
    /** The engine version the binding was built and tested for. */
    public static final String BUILT_FOR = "2.3.8";

    // Written by seatunnel-engine-common's build; the engine reads the same file for its banner.
    static final String RESOURCE = "zeta.version.properties";
    static final String UNKNOWN = "unknown";

    // The engine reads its version through its own class loader; so does this.
    private static final String RUNNING = read(SeaTunnelServer.class.getClassLoader());

    private EngineVersion() {}

    /** The version of the engine on this class path, or {@value #UNKNOWN}. */
    public static String running() {
        return RUNNING;
    }

    /** Empty when Lane A may run on this engine, else the reason it may not. */
    public static String refusal() {
        return refusal(RUNNING);
    }

    static String refusal(String running) {
        if (BUILT_FOR.equals(running)) {
            return "";
        }
        return "this managed-source runtime is built for SeaTunnel Zeta "
                + BUILT_FOR
                + " and the engine is "
                + running
                + "; install the runtime built for that engine";
    }

    static String read(ClassLoader loader) {
        if (loader == null) {
            return UNKNOWN;
        }
        try (InputStream in = loader.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return UNKNOWN;
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("project.version", "").trim();
            return v.isEmpty() ? UNKNOWN : v;
        } catch (IOException | IllegalArgumentException e) {
            return UNKNOWN;
        }
    }
}
