; The compile-time JSON sidecar (TAINTPROF_SIDECAR exact path, or
; TAINTPROF_SIDECAR_DIR/<stem>.o.taintprof-static.json), written atomically.
; RUN: rm -rf %t.dir && mkdir -p %t.dir
; RUN: env TAINTPROF_SIDECAR=%t.json %opt -passes=taintprof-taint -disable-output %inputs/matrix.ll
; RUN: %FileCheck %s < %t.json
; RUN: env TAINTPROF_SIDECAR_DIR=%t.dir %opt -passes=taintprof-taint -disable-output %inputs/matrix.ll
; RUN: %FileCheck %s < %t.dir/matrix.o.taintprof-static.json
; CHECK: "schema": "taintprof.static",
; CHECK-NEXT: "version": 2,
; CHECK: "source": "matrix.cpp",
; CHECK: "functions": [
; CHECK: "name": "init_cpp(matrix&, float)",
; CHECK-NEXT: "linkage": "_Z8init_cppR6matrixf",
; CHECK-NEXT: "file": "{{.*}}inputs/matrix.cpp",
; CHECK-NEXT: "line": 12,
; CHECK-NEXT: "context_tracked": true,
; CHECK-NEXT: "statically_pruned": false,
; CHECK-NEXT: "prune_reason": null,
; CHECK-NEXT: "recursive": false,
; CHECK-NEXT: "branches": 0,
; CHECK-NEXT: "loops": [
; CHECK: "line": 13,
; CHECK-NEXT: "column": 3,
; CHECK-NEXT: "constant_trip": false,
; CHECK-NEXT: "const_trip_count": null,
; CHECK-NEXT: "parent_line": null,
; CHECK: "line": 14,
; CHECK-NEXT: "column": 5,
; CHECK-NEXT: "constant_trip": false,
; CHECK-NEXT: "const_trip_count": null,
; CHECK-NEXT: "parent_line": 13,
; CHECK: "inline_chain": [
; CHECK: "name": "main",
; CHECK: "function": "count(int)",
