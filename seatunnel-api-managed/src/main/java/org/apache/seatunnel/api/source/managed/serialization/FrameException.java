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

package org.apache.seatunnel.api.source.managed.serialization;

import java.io.IOException;
import java.util.Objects;
import org.apache.seatunnel.api.annotation.Experimental;

/**
 * A frame was refused: its {@link #reason()} says why, {@link #detail()} says where, and the
 * message names the format. It is an {@link IOException} so that it travels through SeaTunnel's
 * {@code Serializer} contract; codecs with an error type of their own map the reason onto it.
 *
 * <p>Threading: immutable, any thread. It records no stack trace: a refusal is an expected answer
 * to hostile or corrupt input (the wire decoders refuse such frames on an operation thread), and
 * the detail already says where the input went wrong.
 */
@Experimental
public final class FrameException extends IOException {
    private static final long serialVersionUID = 1L;

    private final FrameRefusal reason;
    private final String format;
    private final String detail;

    public FrameException(FrameRefusal reason, String format, String detail) {
        this.reason = Objects.requireNonNull(reason, "reason");
        this.format = format;
        this.detail = detail;
    }

    public FrameRefusal reason() {
        return reason;
    }

    /** What was wrong, without the format's name. */
    public String detail() {
        return detail;
    }

    /** Built when asked for: a wire decoder answers with the reason and never needs it. */
    @Override
    public String getMessage() {
        return reason.message(format, detail);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
