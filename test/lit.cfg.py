# -*- Python -*-
# lit configuration for seqlint. Loaded through the generated
# build/test/lit.site.cfg.py, which sets the paths below.
import os
import shutil

import lit.formats

config.name = "seqlint"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.seqlint_obj_root, "test")

# FileCheck, not, count, split-file come from the LLVM tools directory.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
# Keep diagnostics stable: no colours, no locale surprises.
config.environment["LC_ALL"] = "C"
config.environment.pop("CLANG_TIDY", None)

# SEQLINT_SANITIZE=ON build (tools/robustness/sanitize.sh): the uninstrumented
# clang/clang-tidy that load the plugin need its ASan+UBSan runtime preloaded.
# abort_on_error: a report kills the process with SIGABRT, so `not` fails too.
# The preload is in the environment (for clang run by the runner, clang-tidy)
# and in the plugin substitutions (for test/runtime/, which drops it).
san_env = ""
if getattr(config, "sanitizer_runtime", ""):
    san_vars = [
        ("LD_PRELOAD", config.sanitizer_runtime),
        ("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1"),
        ("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1:abort_on_error=1"),
    ]
    for k, v in san_vars:
        config.environment[k] = v
    san_env = "env %s " % " ".join("%s=%s" % kv for kv in san_vars)
    config.available_features.add("sanitize")

inputs = os.path.join(config.test_source_root, "Inputs")
kernel_inc = os.path.join(inputs, "kernel")

# Order matters: lit substitutes in list order, so longer names go first.
config.substitutions.append(
    ("%clang_plugin", "%s%s -fplugin=%s -I%s" % (san_env, config.clang, config.plugin, kernel_inc))
)
config.substitutions.append(
    ("%clang_cc1", "%s%s -cc1 -load %s -I%s" % (san_env, config.clang, config.plugin, kernel_inc))
)
# A clang of another major (19 <-> 22), to show that a plugin refuses to run
# in it (plugin/HostVersion.h).
for other in ("19", "22"):
    other_clang = "/usr/lib/llvm-%s/bin/clang" % other
    other_tidy = "/usr/lib/llvm-%s/bin/clang-tidy" % other
    if other != str(config.llvm_version) and os.path.exists(other_clang):
        config.available_features.add("other-clang")
        config.substitutions.append(("%other_clang", other_clang))
        if os.path.exists(other_tidy):
            config.available_features.add("other-clang-tidy")
            config.substitutions.append(("%other_tidy", other_tidy))
        break
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%plugin", config.plugin))
config.substitutions.append(("%tidy_module", config.tidy_module))
config.substitutions.append(("%seqlint_runner", config.runner))
config.substitutions.append(("%metamorph", getattr(config, "metamorph", "")))
config.substitutions.append(("%src_root", config.seqlint_src_root))
config.substitutions.append(("%obj_root", config.seqlint_obj_root))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%kernel_inc", kernel_inc))
config.substitutions.append(("%python", shutil.which("python3") or "python3"))

# Real peers' headers (Debian libdpdk-dev, libck-dev) for recognition tests.
import subprocess
try:
    dpdk = subprocess.run(["pkg-config", "--cflags", "libdpdk"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, universal_newlines=True, timeout=30)
    if dpdk.returncode == 0 and os.path.exists("/usr/include/dpdk/rte_seqcount.h"):
        config.available_features.add("dpdk-headers")
        config.substitutions.append(("%dpdk_cflags", dpdk.stdout.strip()))
except (OSError, subprocess.SubprocessError):
    pass
if os.path.exists("/usr/include/ck_sequence.h"):
    config.available_features.add("ck-headers")
# The kernel's user-space ABI headers (linux-libc-dev).
if os.path.exists("/usr/include/linux/perf_event.h"):
    config.available_features.add("linux-uapi-headers")

# The real-world quick runs (test/tools/real-world-quick.test) fetch Debian
# source packages and install their build dependencies: opt-in.
if os.environ.get("SEQLINT_REAL_WORLD_QUICK") == "1":
    config.available_features.add("real-world-quick")
    for var in ("HOME", "DEBIAN_FRONTEND", "http_proxy", "https_proxy"):
        if var in os.environ:
            config.environment[var] = os.environ[var]

if os.path.exists(config.plugin):
    config.available_features.add("plugin")
if os.path.exists(config.tidy_module):
    config.available_features.add("tidy-module")
if os.path.exists(config.runner):
    config.available_features.add("runner")
if os.path.exists(getattr(config, "metamorph", "")):
    config.available_features.add("metamorph")

# Installing and packaging (test/tools/install.test, deb.test): the CMake
# that configured the tree, its cpack, and the installed layout relative to
# the prefix. deb-tools: cpack can make a .deb, and dpkg-deb and apt-get can
# read it. deb-apt-install (opt-in, root, changes the system: it installs and
# then purges the seqlint package): SEQLINT_DEB_INSTALL=1, as .ci/run sets.
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%cpack", config.cpack))
config.substitutions.append(("%seqlint_version", config.seqlint_version))
config.substitutions.append(("%llvm_major", config.llvm_version))
for name in ("bindir", "libdir", "plugindir", "includedir", "mandir", "docdir"):
    config.substitutions.append(("%%install_%s" % name, getattr(config, "install_" + name)))
if os.path.exists(config.cpack) and shutil.which("dpkg-deb") and shutil.which("apt-get"):
    config.available_features.add("deb-tools")
if (os.environ.get("SEQLINT_DEB_INSTALL") == "1" and hasattr(os, "geteuid")
        and os.geteuid() == 0 and "deb-tools" in config.available_features):
    config.available_features.add("deb-apt-install")
# The HTML report (test/tools/html-*.test): Debian's libjs-highlight.js,
# which the runner copies into a report, and Debian's chromium, which loads
# one headless.
if os.path.exists("/usr/share/javascript/highlight.js/highlight.min.js"):
    config.available_features.add("highlight-js")
if shutil.which("chromium"):
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", shutil.which("chromium")))
for tool in ("groff", "man", "pkg-config", "gzip"):
    if shutil.which(tool):
        config.available_features.add(tool)

# The LLVM major the tree was built against (llvm-19, llvm-22), and what the
# compile checks in cmake/SeqlintCompat.cmake found: custom-diag-groups means
# the plugin's findings are in -Wuser-defined-warnings and -W flags apply.
config.available_features.add("llvm-%s" % config.llvm_version)
if getattr(config, "custom_diag_groups", False):
    config.available_features.add("custom-diag-groups")
