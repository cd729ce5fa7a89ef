; The provenance graph in the sidecar (pass/src/provenance.rs), which
; `taintprof report --why` searches: loads with memory keys, arguments, branches of
; loop exit tests, stores with their value and enclosing branches, call sites with
; each argument's sources, registrations with their name and key.
; RUN: env TAINTPROF_SIDECAR=%t.json %opt -passes=taintprof-taint -disable-output %inputs/provenance.ll
; RUN: %FileCheck %s < %t.json
; CHECK: "version": 2,
;
; init: `m->cells = 2 * n` stores argument 1 into field 8 of struct mesh.
; CHECK: "name": "init",
; CHECK: "provenance": {"fns":{{\[\["init","[^"]*provenance.c"\]\]}},"nodes":{{\[\["arg:1",null,\[\]\]\]}},"loops":[],"stores":{{\[\["s:mesh\+8",\[0,5,45\],\[0\]\]\]}}
;
; sweep: the loop at 6:40 exits on a branch whose condition reads field 8 through
; argument 0 (the pointer's label).
; CHECK: "name": "sweep",
; CHECK: "provenance": {{.*"nodes":\[\["branch",\[0,6,40\],\[5\]\]}}
; CHECK-SAME: {{\["load:s:mesh\+8",\[0,6,63\],\[6\]\].*\["arg:0",null,\[\]\]\]}}
; CHECK-SAME: "loops":{{\[\["sweep",6,40,\[0\]\]\]}}
;
; refine: the loop bound is the global `levels`.
; CHECK: "name": "refine",
; CHECK: "provenance": {{.*\["load:g:levels\+0",\[0,7,51\],\[\]\].*"loops":\[\["refine",7,31,\[0\]\]\]}}
;
; main: `n` is a local (alloca 0) registered as "n"; `levels = n` is stored under the
; branch `if (n > 3)`; the call to init passes a load of `n` as argument 2.
; CHECK: "name": "main",
; CHECK: "provenance": {{.*\["branch",\[0,11,7\],\[7\]\].*\["load:l:0\+0",\[0,11,7\],\[\]\]}}
; CHECK-SAME: "stores":{{\[\["l:0\+0",\[0,9,7\],\[0\]\],\["g:levels\+0",\[0,11,21\],\[1,2\]\]\]}}
; CHECK-SAME: "calls":{{\[\["init",\[0,13,3\],\[\[\],\[3\]\]\]}}
; CHECK-SAME: "regs":{{\[\["n","l:0\+0",\[0,10,3\]\]\]}}
