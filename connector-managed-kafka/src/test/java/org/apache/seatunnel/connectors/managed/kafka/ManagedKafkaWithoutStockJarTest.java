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

package org.apache.seatunnel.connectors.managed.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.ServiceLoader;
import org.apache.seatunnel.api.table.factory.Factory;
import org.apache.seatunnel.api.table.factory.FactoryUtil;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.junit.jupiter.api.Test;

/**
 * A job class path with the managed connectors but without SeaTunnel's {@code connector-kafka}: the
 * plugin archive puts ManagedKafka into every {@code Managed} job, so the engine instantiates its
 * factory also where Kafka's jar is not installed. That must not break other managed connectors,
 * and using ManagedKafka there must name the missing jar.
 */
class ManagedKafkaWithoutStockJarTest {
    private static final String[] HIDDEN = {
        "org.apache.seatunnel.connectors.seatunnel.kafka.",
        "org.apache.kafka.",
        "org.apache.seatunnel.format.",
        // Loaded again by the child, from this module's classes, so that it links against what
        // the child sees.
        "org.apache.seatunnel.connectors.managed.kafka."
    };

    /** The test's class path without Kafka's classes. */
    private static final class WithoutKafka extends ClassLoader {
        WithoutKafka(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            for (String prefix : HIDDEN) {
                if (name.startsWith(prefix)) {
                    throw new ClassNotFoundException(name);
                }
            }
            return super.loadClass(name, resolve);
        }

        /**
         * Without connector-kafka's service files, nor this module's test factories (they are not
         * part of what ships).
         */
        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            String testClasses =
                    ManagedKafkaWithoutStockJarTest.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toString();
            List<URL> kept = new ArrayList<>();
            for (URL url : Collections.list(super.getResources(name))) {
                String u = url.toString();
                if (!u.startsWith(testClasses)
                        && !u.contains(ManagedKafkaSourceFactory.STOCK_JAR)) {
                    kept.add(url);
                }
            }
            return Collections.enumeration(kept);
        }
    }

    private static URLClassLoader jobClassPath() {
        URL managedKafkaClasses =
                ManagedKafkaSourceFactory.class.getProtectionDomain().getCodeSource().getLocation();
        return new URLClassLoader(
                new URL[] {managedKafkaClasses},
                new WithoutKafka(ManagedKafkaWithoutStockJarTest.class.getClassLoader()));
    }

    @Test
    void everyFactoryLoadsAndOtherManagedConnectorsStayUsable() throws Exception {
        try (URLClassLoader loader = jobClassPath()) {
            assertThrows(
                    ClassNotFoundException.class,
                    () ->
                            loader.loadClass(
                                    "org.apache.seatunnel.connectors.seatunnel.kafka.config.Config"),
                    "the test's job class path must lack connector-kafka");
            List<String> identifiers = new ArrayList<>();
            for (Factory f : ServiceLoader.load(Factory.class, loader)) {
                identifiers.add(f.factoryIdentifier());
            }
            assertTrue(identifiers.contains("ManagedKafka"), identifiers.toString());
            assertTrue(identifiers.contains("ManagedFake"), identifiers.toString());
            TableSourceFactory fake =
                    FactoryUtil.discoverFactory(loader, TableSourceFactory.class, "ManagedFake");
            assertEquals("ManagedFake", fake.factoryIdentifier());
            fake.optionRule();
        }
    }

    @Test
    void usingManagedKafkaThereNamesTheMissingJar() throws Exception {
        try (URLClassLoader loader = jobClassPath()) {
            TableSourceFactory kafka =
                    FactoryUtil.discoverFactory(loader, TableSourceFactory.class, "ManagedKafka");
            assertSame(loader, kafka.getClass().getClassLoader(), "loaded without Kafka's classes");
            IllegalStateException e = assertThrows(IllegalStateException.class, kafka::optionRule);
            assertTrue(
                    e.getMessage().contains(ManagedKafkaSourceFactory.STOCK_JAR)
                            && e.getMessage().contains("connectors/"),
                    e.getMessage());
        }
    }
}
