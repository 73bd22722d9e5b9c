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

/**
 * A class loader that loads the classes of one code source (the connector's jar or classes folder)
 * anew and everything else from its parent, as a restarted engine loads a connector: what a
 * snapshot holds must not depend on statics or class identity of the loader that wrote it.
 *
 * <p>Threading: as {@link URLClassLoader}.
 */
final class FreshClassLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    private FreshClassLoader(URL location, ClassLoader parent) {
        super(new URL[] {location}, parent);
    }

    /** A loader over the code source of {@code object}'s class. */
    static FreshClassLoader forClassOf(Object object) {
        Class<?> c = object.getClass();
        CodeSource cs = c.getProtectionDomain().getCodeSource();
        if (cs == null || cs.getLocation() == null) {
            throw new IllegalStateException("no code source for " + c.getName());
        }
        ClassLoader parent = c.getClassLoader();
        return new FreshClassLoader(cs.getLocation(), parent == null ? null : parent);
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
