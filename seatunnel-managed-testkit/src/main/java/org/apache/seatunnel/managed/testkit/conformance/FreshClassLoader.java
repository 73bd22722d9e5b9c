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

package org.apache.seatunnel.managed.testkit.conformance;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;

/**
 * A class loader that loads the classes of the connector's code sources (the jar or classes folders
 * of the source's class and of each of its superclasses) anew and everything else from its parent,
 * as a restarted engine loads a connector: what a snapshot holds must not depend on statics or
 * class identity of the loader that wrote it. The superclasses' code sources count because in a
 * packaged connector they are one jar; a test source that extends a main-classes source would
 * otherwise get its superclass from the parent, in another runtime package, and fail where it never
 * fails in the engine (a package-private constructor or member across the two loaders).
 *
 * <p>Threading: as {@link URLClassLoader}.
 */
final class FreshClassLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    private FreshClassLoader(URL[] locations, ClassLoader parent) {
        super(locations, parent);
    }

    /**
     * A loader over the code sources of {@code object}'s class and its superclasses, except those
     * shared with the engine (SeaTunnel's API, this kit, the JDK).
     *
     * @throws IllegalStateException if the class has no code source
     */
    static FreshClassLoader forClassOf(Object object) {
        Class<?> c = object.getClass();
        if (location(c) == null) {
            throw new IllegalStateException("no code source for " + c.getName());
        }
        Set<URL> shared = new HashSet<>();
        for (Class<?> k :
                new Class<?>[] {
                    SeaTunnelSource.class, ManagedSourceReader.class, FreshClassLoader.class
                }) {
            URL u = location(k);
            if (u != null) {
                shared.add(u);
            }
        }
        Set<URL> locations = new LinkedHashSet<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            URL u = location(k);
            if (u != null && !shared.contains(u)) {
                locations.add(u);
            }
        }
        if (locations.isEmpty()) {
            locations.add(location(c));
        }
        return new FreshClassLoader(locations.toArray(new URL[0]), c.getClassLoader());
    }

    private static URL location(Class<?> c) {
        CodeSource cs = c.getProtectionDomain().getCodeSource();
        return cs == null ? null : cs.getLocation();
    }

    /** What this loader loads anew and what it takes from its parent, for messages. */
    String describe() {
        return "classes of "
                + Arrays.toString(getURLs())
                + " loaded anew, everything else from "
                + getParent();
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null && !name.startsWith("java.")) {
                try {
                    c = findClass(name);
                } catch (ClassNotFoundException notHere) {
                    // Not in the connector's code source: the parent's.
                }
            }
            if (c == null) {
                c = getParent().loadClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    /** A copy of {@code object} made by Java serialization, its classes resolved here. */
    @SuppressWarnings("unchecked")
    <V> V copy(V object) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        }
        InputStream in = new ByteArrayInputStream(bytes.toByteArray());
        try (ObjectInputStream objects =
                new ObjectInputStream(in) {
                    @Override
                    protected Class<?> resolveClass(ObjectStreamClass desc)
                            throws IOException, ClassNotFoundException {
                        try {
                            return Class.forName(desc.getName(), false, FreshClassLoader.this);
                        } catch (ClassNotFoundException e) {
                            return super.resolveClass(desc);
                        }
                    }
                }) {
            return (V) objects.readObject();
        }
    }
}
