#!/usr/bin/env bash
# seqlint real-world target: the Linux 6.12 kernel, x86_64 defconfig, built with clang-19.
#
# Opt-in; not part of the default test suite. What it does:
#   1. installs the Debian packages it needs, extracts /usr/src/linux-source-6.12.tar.xz
#      into the work dir and runs `make ARCH=x86_64 LLVM=-19 defconfig prepare`;
#   2. finds the .c files really compiled by `make all` in that configuration (from a
#      dry run of the whole tree) and, among them, those using the seqcount/seqlock API
#      or smp_wmb/smp_rmb/smp_store_release/smp_load_acquire directly (or the vDSO's
#      open-coded seqcount helpers vdso_read_begin/retry, vdso_write_begin/end), and
#      the ring code of drivers: dma_wmb/dma_rmb, virt_*, writel_relaxed (issue 18);
#   3. builds just those objects (so their .cmd files exist) and writes a
#      compile_commands.json restricted to them;
#   4. writes the list to <workdir>/files.txt (details in files-detail.tsv), prints counts;
#   5. with --run PLUGIN.so: re-runs every compile command with -fsyntax-only and the
#      plugin, stores each file's output under <workdir>/results/ (or --results DIR:
#      runs of different plugin builds side by side) and prints a summary.
#
# Usage: tools/real-world/kernel.sh [--workdir DIR] [-j N] [--skip-install]
#                                   [--run PLUGIN.so [--filter REGEX] [--results DIR]]
# Environment: SEQLINT_PLUGIN_ARGS (extra -fplugin-arg-seqlint-... for --run),
#              SEQLINT_KERNEL_WORKDIR (default /var/tmp/seqlint-kernel),
#              SEQLINT_KERNEL_JOBS (default: nproc).
# Exit status: 0 success; 1 --run saw a crash or a failed compile; 2 usage or setup error.
set -euo pipefail

PROG=${0##*/}
KVER=6.12
TARBALL=/usr/src/linux-source-${KVER}.tar.xz
PACKAGES=("linux-source-${KVER}" flex bison bc libelf-dev libssl-dev lld-19 clang-19 python3)
MAKE_ARGS=(ARCH=x86_64 LLVM=-19)

WORKDIR=${SEQLINT_KERNEL_WORKDIR:-/var/tmp/seqlint-kernel}
JOBS=${SEQLINT_KERNEL_JOBS:-$(nproc 2>/dev/null || echo 2)}
SKIP_INSTALL=0
PLUGIN=
FILTER=
RESULTS=

say()  { printf '%s: %s\n' "$PROG" "$*"; }
die()  { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 2; }
step() { printf '\n==> %s\n' "$*"; }

usage() {
	local code=${1:-0}
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' |
		if [ "$code" -eq 0 ]; then cat; else cat >&2; fi
	exit "$code"
}

while [ $# -gt 0 ]; do
	case $1 in
	--workdir|-w) [ $# -ge 2 ] || die "$1 needs a directory"; WORKDIR=$2; shift 2 ;;
	--workdir=*)  WORKDIR=${1#*=}; shift ;;
	-j|--jobs)    [ $# -ge 2 ] || die "$1 needs a number"; JOBS=$2; shift 2 ;;
	-j*)          JOBS=${1#-j}; shift ;;
	--jobs=*)     JOBS=${1#*=}; shift ;;
	--skip-install) SKIP_INSTALL=1; shift ;;
	--run)        [ $# -ge 2 ] || die "--run needs the path of the plugin .so"; PLUGIN=$2; shift 2 ;;
	--run=*)      PLUGIN=${1#*=}; shift ;;
	--filter)     [ $# -ge 2 ] || die "--filter needs a regular expression"; FILTER=$2; shift 2 ;;
	--filter=*)   FILTER=${1#*=}; shift ;;
	--results)    [ $# -ge 2 ] || die "--results needs a directory"; RESULTS=$2; shift 2 ;;
	--results=*)  RESULTS=${1#*=}; shift ;;
	-h|--help)    usage 0 ;;
	*)            printf '%s: error: unknown argument: %s\n\n' "$PROG" "$1" >&2; usage 2 ;;
	esac
done
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "-j wants a positive number, got '$JOBS'"

mkdir -p "$WORKDIR" || die "cannot create work dir $WORKDIR"
WORKDIR=$(cd "$WORKDIR" && pwd)
KSRC=$WORKDIR/linux-$KVER
DB=$WORKDIR/compile_commands.json

# ---------------------------------------------------------------------------
# 1. packages, source, configuration
# ---------------------------------------------------------------------------
install_packages() {
	local missing=() p
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		say "packages already installed: ${PACKAGES[*]}"
		return
	fi
	local sudo=
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || die "need root (or sudo) to install: ${missing[*]}"
		sudo=sudo
	fi
	say "installing: ${missing[*]}"
	if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"; then
		say "apt-get install failed; running apt-get update and retrying"
		$sudo apt-get update
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" ||
			die "apt-get install failed for: ${missing[*]}"
	fi
}

extract_source() {
	if [ -f "$KSRC/Makefile" ]; then
		say "kernel source already extracted: $KSRC"
		return
	fi
	[ -f "$TARBALL" ] || die "$TARBALL not found (is linux-source-$KVER installed?)"
	say "extracting $TARBALL into $WORKDIR (about 1.4 GB)"
	local tmp=$WORKDIR/.extract.$$
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -C "$tmp" -xf "$TARBALL"
	local top
	top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	[ -n "$top" ] && [ -f "$top/Makefile" ] || die "unexpected tarball layout in $TARBALL"
	mv "$top" "$KSRC"
	rmdir "$tmp"
}

configure_tree() {
	local stamp=$WORKDIR/.stamp-configured
	if [ -f "$stamp" ] && [ -f "$KSRC/.config" ] &&
	   [ -f "$KSRC/include/generated/autoconf.h" ]; then
		say "tree already configured and prepared (delete $stamp to redo)"
		return
	fi
	say "make ${MAKE_ARGS[*]} defconfig prepare (log: $WORKDIR/prepare.log)"
	local t0=$SECONDS
	if ! make -C "$KSRC" "${MAKE_ARGS[@]}" -j"$JOBS" defconfig prepare >"$WORKDIR/prepare.log" 2>&1; then
		tail -n 30 "$WORKDIR/prepare.log" >&2
		die "defconfig/prepare failed; see $WORKDIR/prepare.log"
	fi
	say "defconfig + prepare took $((SECONDS - t0)) s"
	touch "$stamp"
}

# ---------------------------------------------------------------------------
# 2. which .c files are really built, and which of them use the API
# ---------------------------------------------------------------------------
dry_run() {
	# `make -n` prints only what is out of date, and -W is not passed to kbuild's
	# sub-makes. Adding a dummy KCFLAGS changes every C compile command, and kbuild
	# recompiles an object whose command changed, so the dry run lists every C object
	# of `make all` whether or not it was built before (nothing is executed but the
	# recursive makes). Single-object targets (make fs/afs/dir.o) build even when the
	# config disables them, so this listing is the reference, not the Makefiles.
	# The dry run ends with "No rule to make target 'vmlinux.a'": expected, the
	# descent into every directory has happened by then.
	say "dry run of the whole tree (log: $WORKDIR/dryrun.log)"
	make -C "$KSRC" "${MAKE_ARGS[@]}" -n KCFLAGS=-DSEQLINT_DRY_RUN all \
		>"$WORKDIR/dryrun.log" 2>"$WORKDIR/dryrun.err" || true
	local n
	n=$(grep -cE "echo '  CC( \[M\])? " "$WORKDIR/dryrun.log" || true)
	[ "${n:-0}" -gt 1000 ] ||
		die "dry run lists only ${n:-0} compiled objects; see $WORKDIR/dryrun.log and dryrun.err"
	say "dry run: $n compiled objects"
}

classify() {
	python3 - "$KSRC" "$WORKDIR/dryrun.log" "$WORKDIR" <<'PY'
import os, re, sys

ksrc, dryrun, workdir = sys.argv[1:4]

# Objects compiled by `make all`: kbuild echoes "  CC      path.o" / "  CC [M]  path.o".
cc = re.compile(r"echo '  CC( \[M\])? +([^' ]+\.o)'")
objs = {}
with open(dryrun, errors='replace') as f:
    for line in f:
        for m in cc.finditer(line):
            objs[m.group(2)] = bool(m.group(1))

SEQ_API = """
read_seqcount_begin raw_read_seqcount_begin __read_seqcount_begin raw_read_seqcount
raw_seqcount_begin read_seqcount_retry __read_seqcount_retry
write_seqcount_begin write_seqcount_begin_nested raw_write_seqcount_begin
write_seqcount_end raw_write_seqcount_end write_seqcount_invalidate
raw_write_seqcount_barrier
raw_read_seqcount_latch read_seqcount_latch raw_read_seqcount_latch_retry
read_seqcount_latch_retry raw_write_seqcount_latch write_seqcount_latch
write_seqcount_latch_begin write_seqcount_latch_end
read_seqbegin read_seqretry
write_seqlock write_sequnlock write_seqlock_bh write_sequnlock_bh
write_seqlock_irq write_sequnlock_irq write_seqlock_irqsave write_sequnlock_irqrestore
read_seqlock_excl read_sequnlock_excl read_seqlock_excl_bh read_sequnlock_excl_bh
read_seqlock_excl_irq read_sequnlock_excl_irq read_seqlock_excl_irqsave
read_sequnlock_excl_irqrestore
read_seqbegin_or_lock read_seqbegin_or_lock_irqsave need_seqretry done_seqretry
done_seqretry_irqrestore scoped_seqlock_read
u64_stats_fetch_begin u64_stats_fetch_retry u64_stats_update_begin u64_stats_update_end
u64_stats_update_begin_irqsave u64_stats_update_end_irqrestore
""".split()
# Direct barrier uses, plus the open-coded vDSO seqcount helpers of include/vdso/helpers.h
# (READ_ONCE/WRITE_ONCE + smp_rmb/smp_wmb): kernel/time/vsyscall.c, the writer paired
# with the reader in lib/vdso/gettimeofday.c, only calls these.
BARRIERS = """smp_wmb smp_rmb smp_store_release smp_load_acquire
vdso_read_begin vdso_read_retry vdso_write_begin vdso_write_end
dma_wmb dma_rmb virt_wmb virt_rmb virt_mb virt_store_release virt_load_acquire
writel_relaxed""".split()

def names_re(names):
    return re.compile(r'(?<![A-Za-z0-9_])(' + '|'.join(map(re.escape, names)) + r')\s*\(')
seq_re, bar_re = names_re(SEQ_API), names_re(BARRIERS)

# Drop comments and the contents of string/char literals before matching.
lexer = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
def code_of(text):
    return lexer.sub(lambda m: ' ' if m.group(0)[0] == '/' else '""', text)

inc_c = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+\.c)"', re.M)
def sources(path, seen):
    """path plus every .c file it #includes (kernel/sched/build_policy.c style)."""
    if path in seen:
        return
    seen.add(path)
    yield path
    try:
        text = open(os.path.join(ksrc, path), errors='replace').read()
    except OSError:
        return
    for inc in inc_c.findall(text):
        for base in (os.path.dirname(path), '', 'include'):
            cand = os.path.normpath(os.path.join(base, inc))
            if os.path.isfile(os.path.join(ksrc, cand)):
                yield from sources(cand, seen)
                break

rows, generated = [], 0
for obj, module in sorted(objs.items()):
    src = obj[:-2] + '.c'
    if not os.path.isfile(os.path.join(ksrc, src)):
        generated += 1          # generated source or .S-only object: skip
        continue
    seq, bar, incs = set(), set(), []
    for s in sources(src, set()):
        code = code_of(open(os.path.join(ksrc, s), errors='replace').read())
        found_seq, found_bar = seq_re.findall(code), bar_re.findall(code)
        if s != src and (found_seq or found_bar):
            incs.append(s)      # an included .c that contributes matches
        seq.update(found_seq)
        bar.update(found_bar)
    if seq or bar:
        rows.append((src, obj, 'seqcount' if seq else 'barrier', module,
                     sorted(seq), sorted(bar), incs))

with open(os.path.join(workdir, 'files.txt'), 'w') as f:
    for r in rows:
        f.write(r[0] + '\n')
with open(os.path.join(workdir, 'objects.txt'), 'w') as f:
    for r in rows:
        f.write(r[1] + '\n')
with open(os.path.join(workdir, 'files-detail.tsv'), 'w') as f:
    # Matches are textual (comments and strings removed); #if blocks are not
    # evaluated, so an #included .c under a disabled option still counts.
    f.write('# file\tcategory\tbuilt-as\tseqcount-api\tbarriers\tmatching-included-c-files\n')
    for src, obj, cat, module, seq, bar, incs in rows:
        f.write('\t'.join([src, cat, 'module' if module else 'built-in',
                           ','.join(seq) or '-', ','.join(bar) or '-',
                           ','.join(incs) or '-']) + '\n')

nseq = sum(r[2] == 'seqcount' for r in rows)
nbar = len(rows) - nseq
nbar_rw = sum(r[2] == 'barrier' and any(n in ('smp_wmb', 'smp_rmb') or n.startswith('vdso_') for n in r[5])
              for r in rows)
nu64 = sum(r[2] == 'seqcount' and all(n.startswith('u64_stats_') for n in r[4]) for r in rows)
nmod = sum(r[3] for r in rows)
print(f"C objects compiled by 'make all': {len(objs)} ({generated} without a .c in the source tree skipped)")
print(f"files using the seqcount/seqlock API:          {nseq:5d}  (of which u64_stats_* only: {nu64}; on x86_64 these are no-ops)")
print(f"files using barriers only (no seqcount API):   {nbar:5d}  (of which with smp_wmb/smp_rmb or vdso_* helpers: {nbar_rw}; the rest acquire/release only)")
print(f"total selected:                                {len(rows):5d}  ({nmod} built as modules)")
PY
}

# ---------------------------------------------------------------------------
# 3. build the selected objects, generate the compile database
# ---------------------------------------------------------------------------
cmd_file() { printf '%s/%s/.%s.cmd' "$KSRC" "$(dirname "$1")" "$(basename "$1")"; }

build_objects() {
	local -a objs todo=()
	local t0=$SECONDS rc=0 o
	mapfile -t objs <"$WORKDIR/objects.txt"
	[ ${#objs[@]} -gt 0 ] || die "no objects selected"
	# Objects built by an earlier run are left alone: rebuilding one that needs its
	# directory's context (below) as a single target would fail and delete it.
	for o in "${objs[@]}"; do
		[ -f "$KSRC/$o" ] && [ -f "$(cmd_file "$o")" ] || todo+=("$o")
	done
	: >"$WORKDIR/build.log"
	if [ ${#todo[@]} -gt 0 ]; then
		say "building ${#todo[@]} of ${#objs[@]} objects with -j$JOBS (log: $WORKDIR/build.log)"
		make -C "$KSRC" "${MAKE_ARGS[@]}" -j"$JOBS" -k "${todo[@]}" >"$WORKDIR/build.log" 2>&1 || rc=$?
		say "make of the single objects took $((SECONDS - t0)) s (exit status $rc)"
	else
		say "all ${#objs[@]} objects already built"
	fi

	# Some objects only get their flags through the target that links them (the
	# 32-bit vDSO gets -m32 from vdso32.so.dbg): build their directory instead.
	local missing=() dirs=() d
	for o in "${objs[@]}"; do
		[ -f "$KSRC/$o" ] && [ -f "$(cmd_file "$o")" ] || missing+=("$o")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		for o in "${missing[@]}"; do
			d=$(dirname "$o")
			while [ "$d" != . ] && [ ! -f "$KSRC/$d/Makefile" ] && [ ! -f "$KSRC/$d/Kbuild" ]; do
				d=$(dirname "$d")
			done
			if [ "$d" != . ]; then dirs+=("$d/"); fi
		done
		if [ ${#dirs[@]} -gt 0 ]; then
			mapfile -t dirs < <(printf '%s\n' "${dirs[@]}" | sort -u)
			say "${#missing[@]} objects failed as single targets; building their directories: ${dirs[*]}"
			make -C "$KSRC" "${MAKE_ARGS[@]}" -j"$JOBS" -k "${dirs[@]}" >>"$WORKDIR/build.log" 2>&1 || true
		fi
	fi

	missing=()
	for o in "${objs[@]}"; do
		[ -f "$KSRC/$o" ] && [ -f "$(cmd_file "$o")" ] || missing+=("$o")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		printf '%s: warning: %d objects did not build (no .cmd file; see %s); they are left out of the database:\n' \
			"$PROG" "${#missing[@]}" "$WORKDIR/build.log" >&2
		printf '  %s\n' "${missing[@]}" >&2
	fi
	say "build step: $((SECONDS - t0)) s in total"
}

gen_database() {
	# gen_compile_commands.py in 6.12 takes directories, .a archives or modules.order,
	# not single objects: run it over the tree, then keep only the selected files.
	say "writing $DB"
	(cd "$KSRC" && python3 scripts/clang-tools/gen_compile_commands.py \
		-d . -o "$WORKDIR/compile_commands.all.json") || die "gen_compile_commands.py failed"
	python3 - "$WORKDIR/compile_commands.all.json" "$WORKDIR/files.txt" "$DB" "$KSRC" <<'PY'
import json, os, sys
all_db, files, out, ksrc = sys.argv[1:5]
ksrc = os.path.realpath(ksrc)
want = {os.path.join(ksrc, l.strip()) for l in open(files) if l.strip()}
entries = [e for e in json.load(open(all_db)) if os.path.realpath(e['file']) in want]
json.dump(entries, open(out, 'w'), indent=2, sort_keys=True)
have = {os.path.realpath(e['file']) for e in entries}
print('compile_commands.json: %d entries for %d selected files (directory: %s)' % (len(entries), len(want), ksrc))
for f in sorted(want - have):
    print('  not in the database: ' + os.path.relpath(f, ksrc))
PY
	rm -f "$WORKDIR/compile_commands.all.json"
}

# ---------------------------------------------------------------------------
# 5. --run: every compile command again, with -fsyntax-only and the plugin
# ---------------------------------------------------------------------------
run_plugin() {
	[ -f "$PLUGIN" ] || die "plugin not found: $PLUGIN (build it first: cmake --build build)"
	PLUGIN=$(cd "$(dirname "$PLUGIN")" && pwd)/$(basename "$PLUGIN")
	[ -f "$DB" ] || die "no compile database at $DB"
	step "running seqlint ($PLUGIN) over $DB with -j$JOBS"
	python3 - "$DB" "$PLUGIN" "${RESULTS:-$WORKDIR/results}" "$JOBS" "$FILTER" <<'PY'
import collections, concurrent.futures, json, os, re, shlex, shutil, subprocess, sys

db_path, plugin, outdir, jobs, filt = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
entries = json.load(open(db_path))
if filt:
    entries = [e for e in entries if re.search(filt, e['file'])]
shutil.rmtree(outdir, ignore_errors=True)
os.makedirs(outdir)

def command_for(e):
    args = e['arguments'] if 'arguments' in e else shlex.split(e['command'])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == '-o':                       # no object file
            skip = True
            continue
        if a in ('-c', '-Werror') or a.startswith(('-Wp,-MMD,', '-Wp,-MD,')):
            continue                        # no -Werror, no dependency files in the tree
        out.append(a)
    # -fno-crash-diagnostics: no preprocessed reproducer in /tmp per crash (re-run the
    # saved .cmd without it to get one); the stack dump is still printed.
    return out + ['-fsyntax-only', '-fno-crash-diagnostics',
                  '-fplugin=' + plugin, '-fplugin-arg-seqlint-no-werror'] + \
        os.environ.get('SEQLINT_PLUGIN_ARGS', '').split()

def rel(e):
    f = os.path.normpath(os.path.join(e['directory'], e['file']))
    return os.path.relpath(f, e['directory'])

def run(e):
    cmd = command_for(e)
    name = rel(e)
    try:
        p = subprocess.run(cmd, cwd=e['directory'], capture_output=True, text=True,
                           errors='replace', timeout=900)
        rc, so, se = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as x:
        rc, so, se = 124, x.stdout or '', (x.stderr or '') + '\n[kernel.sh: timed out after 900 s]\n'
    base = os.path.join(outdir, name)
    os.makedirs(os.path.dirname(base), exist_ok=True)
    with open(base + '.stdout', 'w') as f:
        f.write(so)
    with open(base + '.stderr', 'w') as f:
        f.write(se)
    with open(base + '.cmd', 'w') as f:
        f.write('cd %s && %s\n' % (shlex.quote(e['directory']), shlex.join(cmd)))
    with open(base + '.rc', 'w') as f:
        f.write('%d\n' % rc)
    return name, rc, so, se

diag = re.compile(r'^(.*?):(\d+):(\d+): (warning|error): (.*)\[seqlint-([A-Za-z0-9-]+)\]\s*$')
per_check, crashed, failed, findings = collections.Counter(), [], [], []
done = 0
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    for name, rc, so, se in pool.map(run, entries):
        done += 1
        if sys.stderr.isatty():
            print('\r[%d/%d] %-70s' % (done, len(entries), name[-70:]), end='', file=sys.stderr)
        if rc >= 128 or rc < 0 or 'PLEASE submit a bug report' in se:
            crashed.append((name, rc))
        elif rc != 0:
            failed.append((name, rc))
        for line in (se + so).splitlines():
            m = diag.match(line)
            if m:
                per_check[m.group(6)] += 1
                findings.append('\t'.join([m.group(1), m.group(2), m.group(3), m.group(4),
                                           'seqlint-' + m.group(6), m.group(5).strip()]))
if sys.stderr.isatty():
    print(file=sys.stderr)

with open(os.path.join(outdir, 'findings.tsv'), 'w') as f:
    f.write('# file\tline\tcol\tseverity\tcheck\tmessage\n')
    f.write(''.join(x + '\n' for x in findings))
lines = ['files analysed: %d' % len(entries),
         'clang crashed:  %d' % len(crashed)]
lines += ['  %s (exit %d)' % c for c in crashed]
lines.append('other failures (exit != 0): %d' % len(failed))
lines += ['  %s (exit %d)' % c for c in failed]
lines.append('seqlint findings: %d' % sum(per_check.values()))
lines += ['  %6d  seqlint-%s' % (n, c) for c, n in sorted(per_check.items(), key=lambda x: (-x[1], x[0]))]
lines.append('per-file output: %s/<file>.{stdout,stderr,rc,cmd}; all findings: %s/findings.tsv' % (outdir, outdir))
open(os.path.join(outdir, 'summary.txt'), 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
sys.exit(1 if crashed or failed else 0)
PY
}

# ---------------------------------------------------------------------------
main() {
	if [ -n "$PLUGIN" ] && [ -f "$DB" ] && [ -f "$WORKDIR/files.txt" ]; then
		say "compile database exists ($DB); skipping setup (remove it to rebuild)"
		run_plugin
		return
	fi
	step "1/4 packages, source and configuration (work dir: $WORKDIR)"
	if [ "$SKIP_INSTALL" -eq 1 ]; then say "skipping package installation"; else install_packages; fi
	for t in clang-19 ld.lld-19 flex bison bc python3 make; do
		command -v "$t" >/dev/null || die "$t not found in PATH"
	done
	extract_source
	configure_tree

	step "2/4 selecting the files built in x86_64 defconfig that use the API"
	dry_run
	classify

	step "3/4 building the selected objects and the compile database"
	build_objects
	gen_database

	step "4/4 done"
	say "files:     $WORKDIR/files.txt (details: files-detail.tsv)"
	say "database:  $DB"
	say "next:      $0 --workdir $WORKDIR --run build/lib/seqlint.so"

	if [ -n "$PLUGIN" ]; then
		run_plugin
	fi
}

main
