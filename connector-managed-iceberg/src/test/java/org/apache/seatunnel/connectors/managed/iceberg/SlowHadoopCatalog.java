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

package org.apache.seatunnel.connectors.managed.iceberg;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * Runner only: a Hadoop catalog whose table refresh (what discovery and scan planning start with)
 * takes {@link #delayMillis} longer, as a slow metastore or object store would, used through {@code
 * iceberg.catalog.config = { catalog-impl = "...SlowHadoopCatalog", warehouse = ... }}. Records
 * which threads made the slow calls, so the runner can say whose thread waits on them.
 */
public class SlowHadoopCatalog extends HadoopCatalog {
    /** Added to every table refresh while positive. */
    static volatile long delayMillis;

    static final AtomicInteger SLOW_CALLS = new AtomicInteger();
    static final Set<String> SLOW_CALLERS = ConcurrentHashMap.newKeySet();

    @Override
    protected TableOperations newTableOps(TableIdentifier identifier) {
        return new SlowOps(super.newTableOps(identifier));
    }

    /** The catalog's operations, with a slower refresh. */
    private static final class SlowOps implements TableOperations {
        private final TableOperations ops;

        SlowOps(TableOperations ops) {
            this.ops = ops;
        }

        @Override
        public TableMetadata current() {
            return ops.current();
        }

        @Override
        public TableMetadata refresh() {
            long d = delayMillis;
            if (d > 0) {
                SLOW_CALLS.incrementAndGet();
                // Thread names without the ids that vary from run to run.
                SLOW_CALLERS.add(Thread.currentThread().getName().replaceAll("[0-9]+", "N"));
                // Stands for a remote call that takes this long; parkNanos returns early only
                // spuriously, which the loop absorbs.
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(d);
                for (long left = end - System.nanoTime();
                        left > 0;
                        left = end - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
            }
            return ops.refresh();
        }

        @Override
        public void commit(TableMetadata base, TableMetadata metadata) {
            ops.commit(base, metadata);
        }

        @Override
        public FileIO io() {
            return ops.io();
        }

        @Override
        public EncryptionManager encryption() {
            return ops.encryption();
        }

        @Override
        public String metadataFileLocation(String fileName) {
            return ops.metadataFileLocation(fileName);
        }

        @Override
        public LocationProvider locationProvider() {
            return ops.locationProvider();
        }

        @Override
        public long newSnapshotId() {
            return ops.newSnapshotId();
        }
    }
}
