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

/**
 * Support for the versioned binary state formats of Lane A: one frame codec (magic, version,
 * bounded body, trailing checksum) that the runtime's checkpoint and wire formats and the connector
 * kit's state serializers all use, so each format keeps only its body.
 *
 * <p>It lives in the SPI rather than in the runtime because the connector kit and the connectors
 * depend on the SPI and not on the runtime: a connector's splits and enumerator state are framed by
 * the same code as the runtime's own checkpoint metadata. It is support for state serializers, not
 * an API a reader or enumerator calls; like the rest of the SPI it is {@link
 * org.apache.seatunnel.api.annotation.Experimental}.
 *
 * <p>A {@link org.apache.seatunnel.api.source.managed.serialization.FrameFormat} describes one
 * format's framing; its {@link org.apache.seatunnel.api.source.managed.serialization.FrameWriter}
 * writes a frame and its {@link org.apache.seatunnel.api.source.managed.serialization.FrameReader}
 * reads one, refusing bad input with a {@link
 * org.apache.seatunnel.api.source.managed.serialization.FrameException} that carries a {@link
 * org.apache.seatunnel.api.source.managed.serialization.FrameRefusal} reason, never with a runtime
 * exception from a buffer. Formats differ in where they check what (some verify the checksum before
 * reading the body, some after): the reader offers each check as a step and the format's codec
 * calls them in its documented order, which keeps every format byte-identical and every refusal
 * reason it reported before.
 */
package org.apache.seatunnel.api.source.managed.serialization;
