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

package org.apache.seatunnel.connectors.managed.reader;

import java.time.Duration;
import org.apache.seatunnel.api.configuration.Option;

/**
 * The range check of a connector's numeric and duration source options, with one error text that
 * names the key, the value and the allowed range. Stateless.
 */
public final class SourceOptionRange {
    private SourceOptionRange() {}

    /** {@code v}, or an {@link IllegalArgumentException} if it is outside {@code [min, max]}. */
    public static long check(Option<?> option, long v, long min, long max) {
        if (v < min || v > max) {
            throw outOfRange(option, v, min, max);
        }
        return v;
    }

    /** {@code v}, or an {@link IllegalArgumentException} if null or outside {@code [min, max]}. */
    public static Duration check(Option<?> option, Duration v, Duration min, Duration max) {
        if (v == null || v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw outOfRange(option, v, min, max);
        }
        return v;
    }

    private static IllegalArgumentException outOfRange(
            Option<?> option, Object v, Object min, Object max) {
        return new IllegalArgumentException(
                "Source option '"
                        + option.key()
                        + "' = "
                        + v
                        + " is out of range ["
                        + min
                        + ", "
                        + max
                        + "]");
    }
}
