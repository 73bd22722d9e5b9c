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

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Test only, a command for the process-cluster walk-through (docs/en/iceberg.md): creates table
 * {@code db.<name>} in a Hadoop catalog at a warehouse directory, or appends to it, with Iceberg's
 * API, and prints the rows it holds. Usage: {@code IcebergTableTool WAREHOUSE NAME COMMITS
 * FILES_PER_COMMIT ROWS_PER_FILE}.
 */
public final class IcebergTableTool {
    private IcebergTableTool() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println(
                    "usage: IcebergTableTool WAREHOUSE NAME COMMITS FILES_PER_COMMIT ROWS_PER_FILE");
            System.exit(2);
        }
        Path warehouse = Paths.get(args[0]).toAbsolutePath();
        int commits = Integer.parseInt(args[2]);
        int files = Integer.parseInt(args[3]);
        int rows = Integer.parseInt(args[4]);
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, args[1])) {
            for (int i = 0; i < commits; i++) {
                t.append(files, rows);
            }
            System.out.println(
                    "table "
                            + IcebergTestTable.NAMESPACE
                            + "."
                            + args[1]
                            + " at "
                            + warehouse.toUri()
                            + ": "
                            + t.keys().size()
                            + " rows in "
                            + t.snapshots().size()
                            + " snapshots");
        }
    }
}
