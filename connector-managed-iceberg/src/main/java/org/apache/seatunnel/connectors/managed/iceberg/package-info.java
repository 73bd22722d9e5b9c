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
 * The Iceberg source on Lane A ({@code ManagedIceberg}): SeaTunnel {@code connector-iceberg}
 * 2.3.8's options, schema and type conversion, scan planning and file-scan reading on the managed
 * reader base; snapshot discovery and incremental scan planning run on the coordinator scheduler's
 * worker pool with a checkpointed cursor (the last planned snapshot, and how much of a snapshot
 * being handed out is out), so a commit of very many files is handed out in bounded chunks.
 */
package org.apache.seatunnel.connectors.managed.iceberg;
