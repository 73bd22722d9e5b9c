#!/usr/bin/env python3
# Licensed to the Apache Software Foundation (ASF) under one or more
# contributor license agreements.  See the NOTICE file distributed with
# this work for additional information regarding copyright ownership.
# The ASF licenses this file to You under the Apache License, Version 2.0
# (the "License"); you may not use this file except in compliance with
# the License.  You may obtain a copy of the License at
#
#    http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""Counts the code lines of Java files: no blank lines, comments (// and /* ... */, javadoc and
the license header included), package or import lines. Usage: tools/code-lines.py FILE...
Prints each file's count and the total."""
import re
import sys


def code_lines(text):
    # Comments go first (a string holding "/*" is not expected in the files this counts).
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    n = 0
    for line in text.splitlines():
        line = re.sub(r"//.*$", "", line).strip()
        if not line or line.startswith("import ") or line.startswith("package "):
            continue
        n += 1
    return n


total = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        n = code_lines(f.read())
    total += n
    print("%5d  %s" % (n, path))
print("%5d  total" % total)
