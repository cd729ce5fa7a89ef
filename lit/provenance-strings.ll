; Registrations whose name is not a plain string constant do not crash the provenance
; graph (pass/src/provenance.rs, const_string): `""` is a zero-filled array (not a
; ConstantDataSequential), a name from a variable is unknown ("?").
; RUN: env TAINTPROF_SIDECAR=%t.json %opt -passes=taintprof-taint -disable-output %s
; RUN: %FileCheck %s < %t.json
; CHECK: "name": "main",
; CHECK: "regs":{{\[\["","g:x\+0",null\],\["n","g:y\+0",null\],\["\?","g:z\+0",null\]\]}}

@x = global i64 0
@y = global i64 0
@z = global i64 0
@.empty = private constant [1 x i8] zeroinitializer
@.n = private constant [2 x i8] c"n\00"

declare void @tp_register_variable(ptr, i64, ptr)

define i32 @main(ptr %name) {
  call void @tp_register_variable(ptr @x, i64 8, ptr @.empty)
  call void @tp_register_variable(ptr @y, i64 8, ptr @.n)
  call void @tp_register_variable(ptr @z, i64 8, ptr %name)
  ret i32 0
}
