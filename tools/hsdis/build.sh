#!/usr/bin/env bash
# Builds tools/hsdis/target/hsdis-amd64.so, the disassembler HotSpot loads for -XX:+PrintAssembly,
# from LLVM's C API (needs gcc and the LLVM development headers, e.g. Debian's llvm-14-dev). Use:
#   LD_LIBRARY_PATH=tools/hsdis/target java -XX:+UnlockDiagnosticVMOptions \
#     -XX:CompileCommand=print,*CountingReader.pollNextManaged ...
set -euo pipefail
cd "$(dirname "$0")"
LLVM_CONFIG=${LLVM_CONFIG:-$(command -v llvm-config || ls /usr/lib/llvm-*/bin/llvm-config 2>/dev/null | tail -1)}
if [ -z "$LLVM_CONFIG" ]; then
  echo "llvm-config not found: install LLVM's development package or set LLVM_CONFIG" >&2
  exit 1
fi
mkdir -p target
gcc -O2 -shared -fPIC -I"$("$LLVM_CONFIG" --includedir)" -o target/hsdis-amd64.so hsdis-llvm.c \
  -L"$("$LLVM_CONFIG" --libdir)" -lLLVM -Wl,-rpath,"$("$LLVM_CONFIG" --libdir)"
echo "built $(pwd)/target/hsdis-amd64.so"
