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

package org.apache.seatunnel.engine.managed.source.protocol;

import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;

/**
 * The runtime command protocol version. Minor versions only append fields a reader of an older
 * minor may ignore; a different major is rejected with {@link
 * AdmissionStatus#UNSUPPORTED_PROTOCOL}.
 */
public final class ProtocolVersion {
    public static final int MAJOR = ManagedSourceCapability.CURRENT_PROTOCOL_MAJOR;
    public static final int MINOR = ManagedSourceCapability.CURRENT_PROTOCOL_MINOR;

    private ProtocolVersion() {}
}
