# Shared code of the library targets in tools/real-world/ (ck.sh, liburing.sh,
# postgresql.sh, qemu.sh). Sourced, not run: each target sets its name, its
# Debian source package, its packages and its directories, then calls the
# rw_* functions below.
#
# Common options:
#   --workdir DIR     work directory (default /var/tmp/seqlint-<name>)
#   --run PLUGIN.so   analyse with this plugin (without it: set up only)
#   --runner PATH     the seqlint runner (default: next to the plugin, i.e.
#                     <plugin dir>/seqlint or <plugin dir>/../bin/seqlint,
#                     else $SEQLINT_RUNNER, else seqlint in PATH)
#   -j N              parallel jobs for the build and the analysis (default: nproc)
#   --quick           a handful of translation units that use barriers/atomics,
#                     with the cheapest setup that compiles them (for CI)
#   --quick-files N   how many translation units --quick takes (default 8)
#   --dirs "D1 D2"    restrict the database to these directories of the source
#                     tree instead of the target's default ('.' for all)
#   --skip-install    do not install Debian packages
#   -h, --help
# Environment: SEQLINT_SRC_CACHE (default /var/tmp/seqlint-src): a directory
# with already downloaded source packages (<pkg>_<version>.dsc and its files);
# used instead of `apt-get source` when it has the package.
# shellcheck shell=bash

RW_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_CACHE=${SEQLINT_SRC_CACHE:-/var/tmp/seqlint-src}
WORKDIR=
PLUGIN=
RUNNER=${SEQLINT_RUNNER:-}
JOBS=$(nproc 2>/dev/null || echo 2)
QUICK=0
QUICK_FILES=8
SKIP_INSTALL=0
DIRS_OVERRIDE=
SETUP_SECS=0
SRC=           # the unpacked source tree (set by rw_fetch_source)
OUT=           # where the database and the results go: $WORKDIR or $WORKDIR/quick
T0=$SECONDS

say()  { printf '%s: %s\n' "$PROG" "$*"; }
warn() { printf '%s: warning: %s\n' "$PROG" "$*" >&2; }
die()  { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 2; }
step() { printf '\n==> %s\n' "$*"; }

# Seconds since the epoch with a fraction (bash 5 has EPOCHREALTIME).
now() { if [ -n "${EPOCHREALTIME:-}" ]; then echo "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

rw_usage() {
	local code=${1:-0}
	{
		sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
		sed -n '/^# Common options/,/^# shellcheck/p' "$RW_DIR/common.sh" |
			sed -e '/^# shellcheck/d' -e 's/^# \{0,1\}//'
	} | if [ "$code" -eq 0 ]; then cat; else cat >&2; fi
	exit "$code"
}

# rw_init NAME: the target's short name (workdir, messages).
rw_init() {
	NAME=$1
	PROG=${0##*/}
	WORKDIR=/var/tmp/seqlint-$NAME
}

rw_parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--workdir|-w) [ $# -ge 2 ] || die "$1 needs a directory"; WORKDIR=$2; shift 2 ;;
		--workdir=*)  WORKDIR=${1#*=}; shift ;;
		--run)        [ $# -ge 2 ] || die "--run needs the path of the plugin .so"; PLUGIN=$2; shift 2 ;;
		--run=*)      PLUGIN=${1#*=}; shift ;;
		--runner)     [ $# -ge 2 ] || die "--runner needs the path of the seqlint runner"; RUNNER=$2; shift 2 ;;
		--runner=*)   RUNNER=${1#*=}; shift ;;
		-j|--jobs)    [ $# -ge 2 ] || die "$1 needs a number"; JOBS=$2; shift 2 ;;
		-j*)          JOBS=${1#-j}; shift ;;
		--jobs=*)     JOBS=${1#*=}; shift ;;
		--quick)      QUICK=1; shift ;;
		--quick-files) [ $# -ge 2 ] || die "$1 needs a number"; QUICK_FILES=$2; shift 2 ;;
		--quick-files=*) QUICK_FILES=${1#*=}; shift ;;
		--dirs)       [ $# -ge 2 ] || die "$1 needs a list of directories"; DIRS_OVERRIDE=$2; shift 2 ;;
		--dirs=*)     DIRS_OVERRIDE=${1#*=}; shift ;;
		--skip-install) SKIP_INSTALL=1; shift ;;
		-h|--help)    rw_usage 0 ;;
		*)            printf '%s: error: unknown argument: %s\n\n' "$PROG" "$1" >&2; rw_usage 2 ;;
		esac
	done
	[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "-j wants a positive number, got '$JOBS'"
	[[ $QUICK_FILES =~ ^[1-9][0-9]*$ ]] || die "--quick-files wants a positive number, got '$QUICK_FILES'"
	if [ -n "$DIRS_OVERRIDE" ]; then
		read -r -a DIRS <<<"$DIRS_OVERRIDE"
	fi
	if [ -n "$PLUGIN" ]; then
		[ -f "$PLUGIN" ] || die "plugin not found: $PLUGIN"
		PLUGIN=$(readlink -f "$PLUGIN")
		if [ -z "$RUNNER" ]; then
			local d
			d=$(dirname "$PLUGIN")
			if [ -x "$d/seqlint" ] && [ ! -d "$d/seqlint" ]; then RUNNER=$d/seqlint
			elif [ -x "$d/../bin/seqlint" ]; then RUNNER=$d/../bin/seqlint
			else RUNNER=$(command -v seqlint || true)
			fi
		fi
		if [ -z "$RUNNER" ] || [ ! -x "$RUNNER" ]; then
			die "the seqlint runner was not found next to $PLUGIN; pass --runner PATH"
		fi
		RUNNER=$(readlink -f "$RUNNER")
	fi
	mkdir -p "$WORKDIR" || die "cannot create work dir $WORKDIR"
	WORKDIR=$(cd "$WORKDIR" && pwd)
	if [ "$QUICK" = 1 ]; then OUT=$WORKDIR/quick; else OUT=$WORKDIR; fi
	mkdir -p "$OUT"
}

# ---------------------------------------------------------------------------
# Debian packages and the source package
# ---------------------------------------------------------------------------
rw_sudo() {
	if [ "$(id -u)" -eq 0 ]; then "$@"
	elif command -v sudo >/dev/null; then sudo "$@"
	else die "need root (or sudo) for: $*"
	fi
}

RW_APT_UPDATED=0
rw_apt_update() {
	[ "$RW_APT_UPDATED" = 1 ] && return
	say "apt-get update"
	rw_sudo apt-get update -qq || die "apt-get update failed"
	RW_APT_UPDATED=1
}

# rw_prepare SRCPKG PKG...: the start of every target's set up: the Debian
# packages it needs, then its source package, unpacked; continues in $SRC.
rw_prepare() {
	local srcpkg=$1
	shift
	step "packages and source (work dir: $WORKDIR)"
	rw_install_packages "$@"
	rw_fetch_source "$srcpkg"
	cd "$SRC" || die "cannot enter $SRC"
}

# rw_install_packages PKG...: installs those that are missing.
rw_install_packages() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return
	[ "$SKIP_INSTALL" = 1 ] && die "missing Debian packages (and --skip-install): ${missing[*]}"
	say "installing: ${missing[*]}"
	if ! rw_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >"$WORKDIR/apt.log" 2>&1; then
		rw_apt_update
		rw_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			"${missing[@]}" >"$WORKDIR/apt.log" 2>&1 ||
			{ tail -n 20 "$WORKDIR/apt.log" >&2; die "apt-get install failed for: ${missing[*]}"; }
	fi
}

# Whether apt knows a deb-src entry (one-line or deb822 format).
rw_have_deb_src() {
	local f
	grep -qsE '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list &&
		return 0
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		grep -qiE '^Types:.*(^|[[:space:]])deb-src([[:space:]]|$)' "$f" &&
			! grep -qiE '^Enabled:[[:space:]]*no' "$f" && return 0
	done
	return 1
}

rw_ensure_deb_src() {
	local pkg=$1 f=/etc/apt/sources.list.d/seqlint-src.sources
	if ! rw_have_deb_src; then
		[ "$SKIP_INSTALL" = 1 ] && die "apt has no deb-src entry (and --skip-install)"
		[ -e "$f" ] && die "$f exists but has no enabled deb-src entry; fix it by hand"
		say "adding a bookworm deb-src entry: $f"
		{
			echo "Types: deb-src"
			echo "URIs: http://deb.debian.org/debian"
			echo "Suites: bookworm bookworm-updates"
			echo "Components: main"
			if [ -f /usr/share/keyrings/debian-archive-keyring.gpg ]; then
				echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
			fi
		} | rw_sudo tee "$f" >/dev/null
		RW_APT_UPDATED=0
		rw_apt_update
	fi
	if [ -z "$(apt-cache showsrc "$pkg" 2>/dev/null | head -n 1)" ]; then
		rw_apt_update
		[ -n "$(apt-cache showsrc "$pkg" 2>/dev/null | head -n 1)" ] ||
			die "apt-cache showsrc $pkg finds nothing (deb-src for bookworm missing?)"
	fi
}

# rw_fetch_source PKG: unpacks the Debian source package PKG under
# $OUT/src (--quick has a tree of its own) and sets SRC. Reuses an earlier unpacked tree, else a .dsc in
# $SRC_CACHE, else runs `apt-get source`.
rw_fetch_source() {
	local pkg=$1 d=$OUT/src stamp
	stamp=$d/.unpacked-$pkg
	mkdir -p "$d"
	if [ -f "$stamp" ] && [ -d "$(cat "$stamp")" ]; then
		SRC=$(cat "$stamp")
		say "source already unpacked: $SRC"
		return
	fi
	local dsc=
	if [ -d "$SRC_CACHE" ]; then
		dsc=$(find "$SRC_CACHE" -maxdepth 1 -name "${pkg}_*.dsc" | sort -V | tail -n 1)
	fi
	local t0
	t0=$(now)
	rm -rf "$d"
	mkdir -p "$d"
	if [ -n "$dsc" ]; then
		say "unpacking $dsc (from $SRC_CACHE) into $d"
		(cd "$d" && dpkg-source --no-check -x "$dsc" >"$d/unpack.log" 2>&1) ||
			{ tail -n 20 "$d/unpack.log" >&2; die "dpkg-source -x $dsc failed"; }
	else
		rw_ensure_deb_src "$pkg"
		say "apt-get source $pkg into $d"
		(cd "$d" && apt-get source -qq "$pkg" >"$d/unpack.log" 2>&1) ||
			{ tail -n 20 "$d/unpack.log" >&2; die "apt-get source $pkg failed"; }
	fi
	SRC=$(find "$d" -mindepth 1 -maxdepth 1 -type d -name "$pkg-*" | head -n 1)
	[ -n "$SRC" ] || die "no $pkg-* directory after unpacking (see $d/unpack.log)"
	echo "$SRC" >"$stamp"
	say "source: $SRC ($(elapsed "$t0" "$(now)") s)"
}

# ---------------------------------------------------------------------------
# Compile databases
# ---------------------------------------------------------------------------
# rw_restrict_db IN.json OUT.json [FILES.txt]: the entries of IN whose source
# file is a .c file of $SRC under one of ${DIRS[@]} (or listed in FILES.txt,
# paths relative to $SRC), one entry per source file (the first the build
# recorded; cc1 sub-commands that bear may record are dropped); writes OUT.
rw_restrict_db() {
	python3 - "$1" "$2" "$SRC" "${3:-}" "${DIRS[@]}" <<'PY'
import json, os, shlex, sys
src_db, out, root, files = sys.argv[1:5]
dirs = [os.path.normpath(d) for d in sys.argv[5:]]
root = os.path.realpath(root)
want = None
if files:
    want = {os.path.normpath(l.strip()) for l in open(files) if l.strip()}
entries = json.load(open(src_db))
kept, seen, dups, cc1, other_lang, outside = [], set(), 0, 0, 0, 0
for e in entries:
    args = e.get('arguments') or shlex.split(e.get('command', ''))
    if '-cc1' in args or '-cc1as' in args:
        cc1 += 1
        continue
    path = os.path.realpath(os.path.join(e['directory'], e['file']))
    rel = os.path.relpath(path, root)
    if rel.startswith('..'):
        outside += 1
        continue
    if want is not None:
        if rel not in want:
            continue
    elif not any(d == '.' or rel == d or rel.startswith(d + '/') for d in dirs):
        continue
    if not rel.endswith('.c'):
        other_lang += 1
        continue
    if rel in seen:
        dups += 1
        continue
    seen.add(rel)
    kept.append(e)
os.makedirs(os.path.dirname(out), exist_ok=True)
json.dump(kept, open(out, 'w'), indent=1)
print('database: %d entries of %d recorded (dropped: %d cc1 sub-commands, %d outside the source '
      'tree, %d not C, %d second compiles of the same file)' %
      (len(kept), len(entries), cc1, outside, other_lang, dups))
if want is not None and len(seen) < len(want):
    for f in sorted(want - seen):
        print('  not in the database: ' + f)
PY
}

# rw_configure_once WHAT CMD...: configures the build tree $BUILD with CMD
# (run with $BUILD made empty), once: a tree with a database and the stamp
# of an earlier run is kept. WHAT says what runs.
rw_configure_once() {
	local what=$1 t0
	shift
	[ -f "$BUILD/compile_commands.json" ] && [ -f "$BUILD/.seqlint-configured" ] && return
	say "$what (log: $OUT/configure.log)"
	t0=$(now)
	rm -rf "$BUILD"
	mkdir -p "$BUILD"
	"$@" >"$OUT/configure.log" 2>&1 ||
		{ tail -n 20 "$OUT/configure.log" >&2; die "configure failed (see $OUT/configure.log)"; }
	touch "$BUILD/.seqlint-configured"
	say "configure: $(elapsed "$t0" "$(now)") s"
}

# rw_db_from_build BUILD.json OUT.json: the database of a build system that
# writes one itself (meson): its .c entries under ${DIRS[@]}, or with --quick
# those of the files rw_select_quick picks among them ($QUICK_RE).
rw_db_from_build() {
	local raw=$1 db=$2 dirs=$OUT/db-dirs.json
	rw_restrict_db "$raw" "$dirs"
	if [ "$QUICK" = 1 ]; then
		python3 -c 'import json,os,sys
for e in json.load(open(sys.argv[1])):
    print(os.path.relpath(os.path.realpath(os.path.join(e["directory"], e["file"])), sys.argv[2]))' \
			"$dirs" "$(readlink -f "$SRC")" >"$OUT/candidates.txt"
		rw_select_quick "$OUT/candidates.txt" "$QUICK_RE" >"$OUT/files.txt"
		say "quick: $(wc -l <"$OUT/files.txt") files: $(tr "\n" " " <"$OUT/files.txt")"
		rw_restrict_db "$raw" "$db" "$OUT/files.txt"
	else
		mkdir -p "$(dirname "$db")"
		mv "$dirs" "$db"
	fi
	rm -f "$dirs"
}

# rw_select_quick LIST.txt REGEX: prints (paths relative to $SRC) up to
# $QUICK_FILES files of LIST (relative paths) with the most matches of REGEX
# in their code (comments removed), taken in turn from each of ${DIRS[@]}.
rw_select_quick() {
	python3 - "$1" "$2" "$SRC" "$QUICK_FILES" "${DIRS[@]}" <<'PY'
import os, re, sys
lst, regex, root, n = sys.argv[1], re.compile(sys.argv[2]), sys.argv[3], int(sys.argv[4])
dirs = [os.path.normpath(d) for d in sys.argv[5:]]
lexer = re.compile(r'//[^\n]*|/\*.*?\*/', re.S)
groups = {d: [] for d in dirs}
for rel in sorted({os.path.normpath(l.strip()) for l in open(lst) if l.strip()}):
    best = None
    for d in dirs:
        if d == '.' or rel == d or rel.startswith(d + '/'):
            if best is None or len(d) > len(best):
                best = d
    if best is None:
        continue
    try:
        code = lexer.sub(' ', open(os.path.join(root, rel), errors='replace').read())
    except OSError:
        continue
    k = len(regex.findall(code))
    if k:
        groups[best].append((-k, rel))
for g in groups.values():
    g.sort()
chosen, i = [], 0
while len(chosen) < n and any(i < len(g) for g in groups.values()):
    for d in dirs:
        if i < len(groups[d]) and len(chosen) < n:
            chosen.append(groups[d][i][1])
    i += 1
print('\n'.join(chosen))
PY
}

# ---------------------------------------------------------------------------
# The analysis
# ---------------------------------------------------------------------------
# Plain clang-19 -fsyntax-only over the database, -j$JOBS, for the time
# ratio; prints the failures (not seqlint's) to $OUT/plain.log.
rw_plain_run() {
	python3 - "$1" "$JOBS" "$OUT/plain.log" <<'PY'
import concurrent.futures, json, os, shlex, subprocess, sys
db, jobs, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def cmd(e):
    args = e.get('arguments') or shlex.split(e['command'])
    out, skip = ['clang-19'], 0
    for a in args[1:]:
        if skip:
            skip -= 1
            continue
        if a in ('-o', '-MF', '-MT', '-MQ'):
            skip = 1
            continue
        if a in ('-c', '-MD', '-MMD', '-MP', '-fsyntax-only') or a.startswith(('-Wp,-MD', '-Wp,-MMD')):
            continue
        out.append(a)
    return out + ['-fsyntax-only', '-Wno-error', '-fno-crash-diagnostics']
def run(e):
    p = subprocess.run(cmd(e), cwd=e['directory'], capture_output=True, text=True, errors='replace',
                       stdin=subprocess.DEVNULL)
    return e['file'], p.returncode, p.stderr
import resource, time
entries = json.load(open(db))
bad = []
r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    for f, rc, err in pool.map(run, entries):
        if rc != 0:
            bad.append((f, rc, err))
r1, t1 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
with open(log, 'w') as f:
    for name, rc, err in bad:
        f.write('== %s (exit %d)\n%s\n' % (name, rc, err))
by_file = {e['file']: e for e in entries}
with open(log + '.files', 'w') as f:
    for name, rc, err in bad:
        f.write(os.path.realpath(os.path.join(by_file[name]['directory'], name)) + '\n')
cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
print('%d %.2f %.2f' % (len(bad), t1 - t0, cpu))
PY
}

# rw_seqlint_run TAG [RUNNER ARGS...]: the runner over $OUT/db, JSON output
# to $OUT/findings-TAG.json, stderr to $OUT/runner-TAG.stderr; sets RUN_SECS
# and RUN_RC.
rw_seqlint_run() {
	local tag=$1 times
	shift
	times=$(cd "$SRC" && rw_timed "$RUNNER" -p "$OUT/db" --plugin="$PLUGIN" -j "$JOBS" --format=json \
		-o "$OUT/findings-$tag.json" "$@" 2>"$OUT/runner-$tag.stderr")
	read -r RUN_RC RUN_SECS RUN_CPU <<<"$times"
}

# rw_timed CMD...: runs CMD (its stdout to /dev/null) and prints its exit
# status, its wall-clock seconds and the CPU seconds of it and its children.
rw_timed() {
	python3 -c 'import resource, subprocess, sys, time
r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
r1, t1 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
print("%d %.2f %.2f" % (rc if rc >= 0 else 128 - rc, t1 - t0, cpu))' "$@"
}

# rw_report TAG SECS CPU RC PLAIN_SECS PLAIN_CPU [CHECKS]: the findings TSV and a
# summary block. A file whose compile crashed is compiled again with the
# plugin to keep clang's stack dump: $OUT/crashes/TAG-<file>.stderr.
rw_report() {
	SRC=$SRC PLUGIN=$PLUGIN python3 - "$OUT" "$@" <<'PY'
import collections, json, os, re, shlex, subprocess, sys
out, tag = sys.argv[1], sys.argv[2]
checks = sys.argv[8] if len(sys.argv) > 8 else ''
src, plugin = os.environ['SRC'], os.environ['PLUGIN']
secs, cpu, rc, plain, plain_cpu = float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), \
    float(sys.argv[6]), float(sys.argv[7])
err = open(os.path.join(out, 'runner-%s.stderr' % tag), errors='replace').read()
try:
    findings = json.load(open(os.path.join(out, 'findings-%s.json' % tag)))
except (OSError, ValueError):
    findings = []
coverage = None
if isinstance(findings, dict):  # {"findings": [...], "coverage": {...}}
    coverage = findings.get('coverage')
    findings = findings.get('findings') or []
with open(os.path.join(out, 'findings-%s.tsv' % tag), 'w') as f:
    f.write('# check\tfile:line\tmessage\n')
    for x in findings:
        msg = (x.get('message') or '').splitlines()
        f.write('seqlint-%s\t%s:%s\t%s\n' % (x['check'], x['file'], x['line'], msg[0] if msg else ''))
m = re.search(r'(\d+) findings? in (\d+) files? \((\d+) files? not analysed', err)
analysed = int(m.group(2)) if m else -1
crash_re = re.compile(r'signal|frontend command failed|PLEASE submit|Stack dump|crash', re.I)
runner_crash = rc not in (0, 1, 2)
# Crashes of plain clang-19 too (not seqlint's), and a stack dump for each.
try:
    plain_bad = {l.strip() for l in open(os.path.join(out, 'plain.log.files')) if l.strip()}
except OSError:
    plain_bad = set()
entries = {}
for e in json.load(open(os.path.join(out, 'db', 'compile_commands.json'))):
    entries.setdefault(os.path.realpath(os.path.join(e['directory'], e['file'])), e)
def details(name):
    path = os.path.realpath(os.path.join(src, name))
    note = ' [plain clang-19 fails on it too]' if path in plain_bad else ''
    e = entries.get(path)
    if e is None:
        return note
    args = e.get('arguments') or shlex.split(e['command'])
    cmd, skip = ['clang-19'], 0
    for a in args[1:]:
        if skip:
            skip -= 1
        elif a in ('-o', '-MF', '-MT', '-MQ'):
            skip = 1
        elif not (a in ('-c', '-MD', '-MMD', '-MP') or a.startswith(('-Wp,-MD', '-Wp,-MMD'))):
            cmd.append(a)
    cmd += ['-fsyntax-only', '-Wno-error', '-fno-crash-diagnostics', '-fplugin=' + plugin,
            '-fplugin-arg-seqlint-no-werror']
    if checks:
        cmd.append('-fplugin-arg-seqlint-checks=' + checks)
    d = os.path.join(out, 'crashes')
    os.makedirs(d, exist_ok=True)
    dump = os.path.join(d, '%s-%s.stderr' % (tag, os.path.relpath(path, src).replace('/', '_')))
    p = subprocess.run(cmd, cwd=e['directory'], capture_output=True, text=True, errors='replace',
                       stdin=subprocess.DEVNULL)
    with open(dump, 'w') as f:
        f.write('cd %s && %s\n# exit %d\n%s' % (shlex.quote(e['directory']), shlex.join(cmd),
                                                 p.returncode, p.stderr))
    return note + ' (stack dump: %s)' % dump
crashed, failed = [], []
for line in err.splitlines():
    mm = re.match(r'.*?: error: (.*?) not analysed: (.*)$', line) or \
         re.match(r'.*?: error: (program-wide pairing) failed: (.*)$', line)
    if mm:
        if crash_re.search(mm.group(2)):
            crashed.append('%s: %s%s' % (mm.group(1), mm.group(2), details(mm.group(1))))
        else:
            failed.append('%s: %s' % mm.groups())
per = collections.Counter(x['check'] for x in findings)
lines = ['[%s] files analysed: %s' % (tag, analysed if analysed >= 0 else '? (no summary line)'),
         '[%s] crashes: %d%s' % (tag, len(crashed) + runner_crash,
                                 ' (runner exit %d)' % rc if runner_crash else '')]
lines += ['    ' + c for c in crashed]
# What was recognised (the runner's coverage), so that "0 findings" reads as
# "checked N sections, 0 findings".
cm = re.search(r'checked (\d+ TUs?: .*)$', err, re.M)
lines.append('[%s] checked: %s' % (tag, cm.group(1) if cm else '? (no coverage in the runner summary)'))
lines.append('[%s] not analysed, not a crash (compile errors): %d' % (tag, len(failed)))
lines += ['    ' + c for c in failed[:20]]
if len(failed) > 20:
    lines.append('    ... (%d more in runner-%s.stderr)' % (len(failed) - 20, tag))
lines.append('[%s] findings: %d (runner exit %d)' % (tag, len(findings), rc))
lines += ['    %5d  seqlint-%s' % (n, c) for c, n in sorted(per.items(), key=lambda x: (-x[1], x[0]))]
ratio = secs / plain if plain > 0 else float('nan')
cpu_ratio = cpu / plain_cpu if plain_cpu > 0 else float('nan')
lines.append('[%s] time ratio seqlint / clang-19 -fsyntax-only: %.2f wall-clock (%.1f s / %.1f s), '
             '%.2f CPU (%.1f s / %.1f s)' % (tag, ratio, secs, plain, cpu_ratio, cpu, plain_cpu))
print('\n'.join(lines))
# one machine-readable line for libraries.sh
with open(os.path.join(out, 'summary-%s.tsv' % tag), 'w') as f:
    f.write('\t'.join(map(str, [analysed, len(crashed) + runner_crash, len(failed), len(findings),
                                ','.join('%s=%d' % (c, n) for c, n in sorted(per.items())) or '-',
                                '%.2f' % ratio, '%.2f' % cpu_ratio, '%.1f' % secs,
                                '%.1f' % plain])) + '\n')
sys.exit(3 if crashed or runner_crash else 0)
PY
}

# rw_analyse: the two runs (default checks, every check) and the plain
# clang-19 run over $OUT/db/compile_commands.json, side by side. Exit status 1
# when a run crashed.
rw_analyse() {
	local db=$OUT/db/compile_commands.json entries plain_secs nbad crash=0
	[ -f "$db" ] || die "no compile database at $db"
	entries=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$db")
	[ "$entries" -gt 0 ] || die "the compile database $db is empty"
	rm -rf "$OUT"/summary-*.tsv "$OUT/crashes"
	step "analysis of $entries translation units with -j$JOBS (plugin: $PLUGIN; runner: $RUNNER)"
	local ta
	ta=$(now)
	# Plain clang-19 before and after the two seqlint runs: the ratios use the
	# mean of the two, and their difference shows how noisy the machine was.
	local plain_cpu p1 c1 p2 c2
	say "plain clang-19 -fsyntax-only (for the time ratio)"
	read -r nbad p1 c1 <<<"$(rw_plain_run "$db")"
	say "  $p1 s; $nbad entries do not compile with plain clang-19 (see $OUT/plain.log)"
	say "seqlint, default checks"
	rw_seqlint_run default
	local def_secs=$RUN_SECS def_cpu=$RUN_CPU def_rc=$RUN_RC
	say "  $def_secs s"
	say "seqlint, --checks='*'"
	rw_seqlint_run all --checks='*'
	local all_secs=$RUN_SECS all_cpu=$RUN_CPU all_rc=$RUN_RC
	say "  $all_secs s"
	say "plain clang-19 -fsyntax-only again"
	read -r nbad p2 c2 <<<"$(rw_plain_run "$db")"
	say "  $p2 s"
	plain_secs=$(awk -v a="$p1" -v b="$p2" 'BEGIN { printf "%.2f", (a + b) / 2 }')
	plain_cpu=$(awk -v a="$c1" -v b="$c2" 'BEGIN { printf "%.2f", (a + b) / 2 }')
	step "summary: $NAME$( [ "$QUICK" = 1 ] && echo ' (--quick)')"
	{
		echo "source:           $SRC"
		echo "set up:           $SETUP_SECS$([ "$RW_SKIPPED_SETUP" = 1 ] || echo ' s') (packages, source, build, database)"
		echo "database entries: $entries ($db)"
		echo "plain clang-19:   $nbad entries fail to compile (not seqlint; $OUT/plain.log)"
		echo "plain clang-19 -fsyntax-only, before and after the seqlint runs: $p1 s and $p2 s wall-clock," \
			"$c1 s and $c2 s CPU (the ratios below use the mean)"
		rw_report default "$def_secs" "$def_cpu" "$def_rc" "$plain_secs" "$plain_cpu" || crash=1
		rw_report all "$all_secs" "$all_cpu" "$all_rc" "$plain_secs" "$plain_cpu" '*' || crash=1
		echo "findings: $OUT/findings-{default,all}.{json,tsv}; runner stderr: $OUT/runner-{default,all}.stderr"
		echo "analysis took $(elapsed "$ta" "$(now)") s; the whole script $((SECONDS - T0)) s"
	} >"$OUT/summary.txt"
	cat "$OUT/summary.txt"
	printf '%s\t%s\t%s\t%s\n' "$NAME" "$entries" "$nbad" "$(cat "$OUT/setup-secs" 2>/dev/null || echo '?')" \
		>"$OUT/summary-entries.tsv"
	return $crash
}

# rw_have_db: true (and SRC set) when --run was given and an earlier run left
# the compile database: the set up is then skipped.
rw_have_db() {
	local db=$OUT/db/compile_commands.json stamp
	[ -n "$PLUGIN" ] && [ -f "$db" ] || return 1
	stamp=$(find "$OUT/src" -maxdepth 1 -name '.unpacked-*' 2>/dev/null | head -n 1 || true)
	[ -n "$stamp" ] && [ -d "$(cat "$stamp")" ] || return 1
	SRC=$(cat "$stamp")
	say "compile database exists ($db); skipping the set up (remove it to redo)"
	RW_SKIPPED_SETUP=1
}
RW_SKIPPED_SETUP=0

# rw_finish: analysis when --run was given, else the next command to type.
rw_finish() {
	if [ "$RW_SKIPPED_SETUP" = 1 ]; then
		SETUP_SECS="skipped (the earlier set up took $(cat "$OUT/setup-secs" 2>/dev/null || echo '?')"
		SETUP_SECS+=" s)"
	else
		echo $((SECONDS - T0)) >"$OUT/setup-secs"
	fi
	if [ -z "$PLUGIN" ]; then
		step "set up done in $((SECONDS - T0)) s; database: $OUT/db/compile_commands.json"
		say "next: $0 --workdir $WORKDIR$( [ "$QUICK" = 1 ] && echo ' --quick') --run build/lib/seqlint.so"
		exit 0
	fi
	[ "$RW_SKIPPED_SETUP" = 1 ] || { SETUP_SECS=$((SECONDS - T0)); say "set up done in $SETUP_SECS s"; }
	if rw_analyse; then exit 0; else exit 1; fi
}
