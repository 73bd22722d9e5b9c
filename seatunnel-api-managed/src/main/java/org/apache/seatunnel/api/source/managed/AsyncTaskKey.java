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

package org.apache.seatunnel.api.source.managed;

import java.util.Objects;
import org.apache.seatunnel.api.annotation.Experimental;

/**
 * Identifies one kind of recurring coordinator work (for example "discover-splits") for coalescing
 * and metrics. The name is bounded to 64 printable ASCII characters because it becomes a metric
 * label: never put a split id, table path or any user data in it.
 */
@Experimental
public final class AsyncTaskKey {
    public static final int MAX_NAME_LENGTH = 64;

    private final String name;

    private AsyncTaskKey(String name) {
        this.name = name;
    }

    public static AsyncTaskKey of(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(
                    "AsyncTaskKey name must have 1.." + MAX_NAME_LENGTH + " characters");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException(
                        "AsyncTaskKey name must be printable ASCII without spaces");
            }
        }
        return new AsyncTaskKey(name);
    }

    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AsyncTaskKey && ((AsyncTaskKey) o).name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
