# lit configuration for the taintprof pass plugin's IR-level tests.
#
#   lit -v lit/                      (from the repository root)
#   TAINTPROF_PLUGIN=/path/libtaintprof_pass.so lit -v lit/
#
# Substitutions:
#   %plugin      the plugin .so
#   %opt_taint   opt-19 with the plugin loaded, running `taintprof-taint`, printing IR
#   %opt_rules   the same, without the final loop hoisting (`no-hoist`) and without
#                moving control labels onto twin bits (`no-split`): the code as the
#                rules emit it, for tests that check the rules themselves
#                (control-writes.ll checks the split)
#   %opt_dataflow  %opt_rules with control-flow tainting off (data flow only), for the
#                tests of data-flow propagation (control flow has its own tests)
#   %opt_denormal  opt-19 with the plugin loaded, running denormal mode with its cold
#                regions left inline (`no-dn-outline`, so that the tests read them in
#                place; dn-outline.ll checks the outlining), printing IR; tests of
#                denormal mode are `dn-*.ll`
#   %opt_dn_hooks  the same denormal mode (`taintprof-taint<mode=denormal;...>`) with
#                `no-dn-inline-ops`: operation sites call `__tpd_op` instead of being
#                handled inline (no inline counters), for the checks of the hook path
#   %opt_dn_nomem  denormal mode with `no-dn-inline-mem`: operations inline, loads and
#                stores always call their hooks (no inline memory cache; that has its
#                own test, dn-mem-cache.ll), for the checks of the hook calls
#   %opt         opt-19 with the plugin loaded (give -passes yourself)
#   %clang       clang-19
#   %FileCheck   FileCheck from LLVM 19
import os
import lit.formats

config.name = "taintprof"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".cpp"]
config.test_source_root = os.path.dirname(__file__)
repo = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(repo, "target", "lit")
config.excludes = ["inputs", "lit.cfg.py"]

plugin = os.environ.get("TAINTPROF_PLUGIN",
                        os.path.join(repo, "target", "release", "libtaintprof_pass.so"))
if not os.path.exists(plugin):
    lit_config.fatal(f"plugin not found: {plugin} (cargo build --release -p taintprof-pass, "
                     "or set TAINTPROF_PLUGIN)")
llvm_bin = "/usr/lib/llvm-19/bin"
filecheck = os.path.join(llvm_bin, "FileCheck")
opt = "opt-19"

config.substitutions.append(("%opt_taint", f"{opt} -load-pass-plugin={plugin} -passes=taintprof-taint -S"))
config.substitutions.append(("%opt_rules", f"{opt} -load-pass-plugin={plugin} '-passes=taintprof-taint<no-hoist;no-split>' -S"))
config.substitutions.append(("%opt_dataflow", f"{opt} -load-pass-plugin={plugin} '-passes=taintprof-taint<no-control-flow;no-hoist>' -S"))
# The denormal tests read the cold regions in place: `no-dn-outline` (dn-outline.ll
# checks the outlining itself).
config.substitutions.append(("%opt_denormal", f"{opt} -load-pass-plugin={plugin} '-passes=taintprof-taint<mode=denormal;no-dn-outline>,verify' -S"))
config.substitutions.append(("%opt_dn_nomem", f"{opt} -load-pass-plugin={plugin} '-passes=taintprof-taint<mode=denormal;no-dn-inline-mem;no-dn-outline>,verify' -S"))
config.substitutions.append(("%opt_dn_hooks", f"{opt} -load-pass-plugin={plugin} '-passes=taintprof-taint<mode=denormal;no-dn-inline-ops;no-dn-outline>,verify' -S"))
config.substitutions.append(("%opt", f"{opt} -load-pass-plugin={plugin}"))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%clang", "clang-19"))
config.substitutions.append(("%FileCheck", filecheck))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "inputs")))

# The tests must not see the user's taintprof settings.
for k in list(os.environ):
    if k.startswith("TAINTPROF_") and k != "TAINTPROF_PLUGIN":
        config.environment.pop(k, None)
config.environment["PATH"] = llvm_bin + os.pathsep + os.environ.get("PATH", "")
