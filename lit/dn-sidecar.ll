; Denormal mode's compile-time JSON sidecar (same places as in taint mode:
; TAINTPROF_SIDECAR, or TAINTPROF_SIDECAR_DIR/<stem>.o.taintprof-static.json): the
; number of sites and counted blocks (the basic blocks only: not the operation sites'
; inline counters, which the module's n_blocks also counts), sites per
; operation, the global, static and stack arrays, and the FP-typed allocation sites
; with how they were typed.
; RUN: rm -rf %t.dir && mkdir -p %t.dir
; RUN: env TAINTPROF_SIDECAR=%t.json %opt -passes=taintprof-denormal -disable-output %inputs/dn-arrays-O2.ll
; RUN: %FileCheck %s < %t.json
; RUN: env TAINTPROF_MODE=denormal TAINTPROF_SIDECAR_DIR=%t.dir %opt -passes=taintprof-taint -disable-output %inputs/dn-arrays-O0.ll
; RUN: %FileCheck %s --check-prefix=O0 < %t.dir/dn-arrays.o.taintprof-static.json
; CHECK: "schema": "taintprof.static",
; CHECK-NEXT: "version": 1,
; CHECK-NEXT: "abi_version": 13,
; CHECK-NEXT: "mode": "denormal",
; CHECK-NEXT: "source": "dn-arrays.c",
; CHECK-NEXT: "debug_info": true,
; CHECK-NEXT: "sites": 80,
; CHECK-NEXT: "blocks": 13,
; CHECK-NEXT: "operations": [
; CHECK: "op": "fadd",
; CHECK: "op": "load",
; CHECK: "arrays": [
; CHECK: "name": "hist",
; CHECK-NEXT: "kind": "static",
; CHECK-NEXT: "element_type": "float",
; CHECK-NEXT: "elements": 8,
; CHECK-NEXT: "function": "stack_and_vla",
; CHECK: "name": "grid",
; CHECK-NEXT: "kind": "global",
; CHECK-NEXT: "element_type": "float",
; CHECK-NEXT: "elements": 4096,
; CHECK: "name": "local",
; CHECK-NEXT: "kind": "stack",
; CHECK-NEXT: "element_type": "double",
; CHECK-NEXT: "elements": 32,
; CHECK: "allocation_sites": [
; CHECK: "name": "vla",
; CHECK-NEXT: "allocator": "alloca",
; CHECK: "name": "a",
; CHECK-NEXT: "allocator": "malloc",
; CHECK-NEXT: "element_type": "float",
; CHECK-NEXT: "typed_by": "debug-info",
; CHECK-NEXT: "function": "main",
; CHECK: "name": "raw",
; CHECK-NEXT: "allocator": "malloc",
; CHECK-NEXT: "element_type": "double",
; CHECK-NEXT: "typed_by": "fp-use",
; CHECK: "functions": [
; O0: "mode": "denormal",
; O0: "name": "f.data",
