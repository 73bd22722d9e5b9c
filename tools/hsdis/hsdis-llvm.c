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

/*
 * A developer tool, never shipped: the disassembler HotSpot loads for -XX:+PrintAssembly, built on
 * LLVM's C disassembler API, so compiled loops can be read on a machine without a packaged hsdis.
 * Intel syntax; relative branch and call targets are printed as absolute addresses so a loop can
 * be followed. Options passed by the JVM are ignored.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Disassembler.h>

extern void LLVMInitializeX86TargetInfo(void);
extern void LLVMInitializeX86TargetMC(void);
extern void LLVMInitializeX86Disassembler(void);

typedef void *(*event_fn)(void *stream, const char *event, void *arg);
typedef int (*printf_fn)(void *stream, const char *format, ...);

static int initialized;

/* Prints one instruction; a jump or call to a relative target gets the absolute address. */
static void print_insn(printf_fn pf, void *ps, char *text, uintptr_t next_pc) {
    char *mnemonic = text;
    while (*mnemonic == '\t' || *mnemonic == ' ') {
        mnemonic++;
    }
    char *operand = strrchr(text, '\t');
    if (operand != NULL && operand > mnemonic
            && (mnemonic[0] == 'j' || strncmp(mnemonic, "call", 4) == 0)) {
        char *end = NULL;
        long rel = strtol(operand + 1, &end, 10);
        if (end != operand + 1 && *end == '\0') {
            *operand = '\0';
            pf(ps, "%s\t0x%lx", text, (unsigned long) (next_pc + rel));
            return;
        }
    }
    pf(ps, "%s", text);
}

void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char *buffer,
                                  uintptr_t length, event_fn event, void *event_stream,
                                  printf_fn pf, void *printf_stream, const char *options,
                                  int newline) {
    (void) options;
    if (!initialized) {
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86TargetMC();
        LLVMInitializeX86Disassembler();
        initialized = 1;
    }
    LLVMDisasmContextRef dc = LLVMCreateDisasm("x86_64-pc-linux-gnu", NULL, 0, NULL, NULL);
    if (dc == NULL) {
        return (void *) start_va;
    }
    LLVMSetDisasmOptions(dc, LLVMDisassembler_Option_PrintImmHex
                                 | LLVMDisassembler_Option_AsmPrinterVariant);
    uintptr_t pc = start_va;
    while (pc < end_va) {
        char text[256];
        size_t offset = pc - start_va;
        if (event != NULL) {
            event(event_stream, "insn", (void *) pc);
        }
        size_t n = LLVMDisasmInstruction(dc, buffer + offset, length - offset, pc, text,
                                         sizeof text);
        if (n == 0) {
            pf(printf_stream, "\t(bad)");
            n = 1;
        } else {
            print_insn(pf, printf_stream, text, pc + n);
        }
        pc += n;
        if (event != NULL) {
            event(event_stream, "/insn", (void *) pc);
        }
        if (newline) {
            pf(printf_stream, "\n");
        }
    }
    LLVMDisasmDispose(dc);
    return (void *) pc;
}
