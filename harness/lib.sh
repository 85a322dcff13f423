# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Host side of the harness: packages, tree, config, build, initramfs, boot
# and the verdict.  Sourced by ./run; every stage announces itself and every
# failure names the stage, the command and the log file.

# shellcheck source=harness/base.conf
. "$TOP/harness/base.conf"

VARIANT=${VARIANT:-ours}
JOBS=${JOBS:-$(($(nproc) + 1))}
SHELL_KIND=${SHELL_KIND:-bench}
B=${RUN_BUILD_DIR:-$TOP/build}
R=${RUN_RESULTS:-$TOP/results}
LOGS=$B/logs
# Both variants and every clone share one cache outside the repo: relative
# paths make the stock and the patched tree hit the same entries.
export CCACHE_BASEDIR=$B CCACHE_NOHASHDIR=1

# Patterns in the console that fail a run even when every test passed.
SPLAT_RE='WARNING:|BUG:|Oops|general protection fault|Kernel panic|KASAN|kmemleak: .*(new suspected|unreferenced)|unreferenced object|possible recursive locking|possible circular locking|inconsistent lock state|lock held when returning|suspicious RCU usage|DEBUG_LOCKS_WARN_ON|INFO: task .* blocked for more than|rcu: INFO: .* detected stalls|soft lockup|hard LOCKUP|UBSAN|list_add corruption|list_del corruption|ODEBUG:'

stage() { printf '==> %s\n' "$*"; }
# In "./run test" a stage that fails still ends with the summary line CI reads.
IN_TEST=0
die() {
	printf 'run: %s\n' "$*" >&2
	if [ "$IN_TEST" = 1 ]; then
		echo "FAIL harness: $*"
		echo "$NPASS passed, $((NFAIL + 1)) failed"
	fi
	exit 1
}

# run_logged STAGE LOG CMD...: run CMD with its output in LOG; on failure
# show the tail and name the stage, command and log.
run_logged() {
	local what=$1 log=$2
	shift 2
	mkdir -p "$(dirname "$log")"
	if ! "$@" >"$log" 2>&1; then
		tail -n 25 "$log" >&2
		die "stage '$what' failed: '$*' (log: $log)"
	fi
}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Install what is missing, with one "apt-get update" first.
need_packages() {
	local missing="" p
	for p in $HOST_PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	stage "packages: installing$missing"
	mkdir -p "$LOGS"
	as_root apt-get update -q >"$LOGS/apt.log" 2>&1 ||
		die "stage 'packages' failed: apt-get update (log: $LOGS/apt.log)"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q $missing \
		>>"$LOGS/apt.log" 2>&1 ||
		die "stage 'packages' failed: apt cannot install$missing (log: $LOGS/apt.log)"
}

check_base() {
	local v
	v=$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null) ||
		die "base package $BASE_PKG is not installed"
	[ "$v" = "$BASE_PKG_VERSION" ] ||
		die "base mismatch: $BASE_PKG is $v, this series is pinned to $BASE_PKG_VERSION (edit harness/base.conf after refreshing patches/)"
	[ -f "$BASE_TARBALL" ] || die "base tarball $BASE_TARBALL is missing"
}

overlay_files() {
	local d
	(cd "$TOP" && for d in $OVERLAY_DIRS; do
		if [ -d "$d" ]; then find "$d" -type f; fi
	done | LC_ALL=C sort)
}

# What decides whether the tree must be extracted anew: the base, the series
# and the set of overlaid files (their contents are synced every time, so a
# changed .c file only costs an incremental build).
tree_stamp() {
	{
		echo "$BASE_PKG_VERSION $VARIANT"
		if [ "$VARIANT" = ours ]; then
			cat "$TOP/patches/series"
			sed -e 's/#.*//' "$TOP/patches/series" | while read -r p; do
				[ -n "$p" ] && cat "$TOP/patches/$p"
			done
			overlay_files
		fi
	} | sha256sum | cut -d' ' -f1
}

sync_overlay() {
	if [ "$VARIANT" = ours ]; then
		overlay_files | rsync -rc --files-from=- "$TOP/" "$SRC/"
	else
		# The stock tree gets nothing but the same config fragments.
		rsync -rc "$TOP/kernel/configs/" "$SRC/kernel/configs/"
	fi
}

apply_series() {
	local p n=0
	while read -r p; do
		p=${p%%#*}
		p=$(echo "$p" | tr -d '[:space:]')
		[ -n "$p" ] || continue
		[ -f "$TOP/patches/$p" ] || die "series names patches/$p, which does not exist"
		if ! (cd "$SRC" && patch -p1 -N -s --no-backup-if-mismatch \
				-r - <"$TOP/patches/$p") >"$LOGS/patch-$p.log" 2>&1; then
			cat "$LOGS/patch-$p.log" >&2
			die "stage 'patch' failed: patches/$p does not apply to $BASE_KERNELVERSION (log: $LOGS/patch-$p.log)"
		fi
		n=$((n + 1))
	done <"$TOP/patches/series"
	echo "    $n patches applied"
}

prepare_tree() {
	SRC=$B/$VARIANT/src
	mkdir -p "$LOGS"
	check_base
	local stamp
	stamp=$(tree_stamp)
	# A tree that a mutant run left changed (it was interrupted) is not
	# the tree the stamp describes any more.
	[ ! -f "$SRC/.harness-mutant" ] || rm -f "$SRC/.harness-stamp"
	if [ ! -f "$SRC/.harness-stamp" ] || [ "$(cat "$SRC/.harness-stamp")" != "$stamp" ]; then
		stage "extract: $BASE_TARBALL -> $SRC"
		rm -rf "$SRC" "$B/$VARIANT/tmp"
		mkdir -p "$B/$VARIANT/tmp"
		# --touch: the archive's mtimes are older than the objects built
		# from the previous tree, so a file that a patch no longer
		# changes (one taken out of the series) would not be rebuilt.
		run_logged extract "$LOGS/extract-$VARIANT.log" \
			tar xJf "$BASE_TARBALL" --touch -C "$B/$VARIANT/tmp"
		mv "$B/$VARIANT/tmp/$BASE_TOPDIR" "$SRC"
		rmdir "$B/$VARIANT/tmp"
		local kv
		kv=$(make -s -C "$SRC" kernelversion)
		[ "$kv" = "$BASE_KERNELVERSION" ] ||
			die "base mismatch: the tarball holds $kv, expected $BASE_KERNELVERSION"
		sync_overlay
		if [ "$VARIANT" = ours ]; then
			stage "patch: patches/series"
			apply_series
		fi
		echo "$stamp" >"$SRC/.harness-stamp"
	else
		stage "tree: reusing $SRC ($VARIANT)"
		sync_overlay
	fi
}

# configure KIND: tinyconfig + the committed fragments, then check that every
# symbol of the fragments made it (a dependency lost is a silent wrong kernel).
configure() {
	local kind=$1 frags="rcu-tasks.config"
	case "$kind" in
	test) frags="$frags rcu-tasks-debug.config" ;;
	rt) frags="$frags rcu-tasks-rt.config" ;;
	esac
	OBJ=$B/$VARIANT/obj-$kind
	mkdir -p "$OBJ"
	local want
	want=$(cd "$SRC/kernel/configs" && cat $frags | sha256sum | cut -d' ' -f1)
	if [ -f "$OBJ/.config" ] && [ "$(cat "$OBJ/.harness-config" 2>/dev/null)" = "$want" ]; then
		return 0
	fi
	stage "configure: tinyconfig + $frags ($VARIANT/$kind)"
	# shellcheck disable=SC2086
	run_logged configure "$LOGS/config-$VARIANT-$kind.log" \
		make -C "$SRC" O="$OBJ" ARCH=x86_64 tinyconfig $frags
	local line k v got bad=""
	while read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		k=${line%%=*} v=${line#*=}
		got=$(grep -E "^$k=" "$OBJ/.config" || true)
		# The stock tree lacks the symbols our series adds: not an error.
		if [ "$VARIANT" = stock ] && [ -z "$got" ] &&
		   ! grep -rqE "^(menu)?config ${k#CONFIG_}\$" --include='Kconfig*' "$SRC"; then
			continue
		fi
		if [ "$v" = n ]; then
			[ -z "$got" ] || bad="$bad $line(got:$got)"
		elif [ "$got" != "$line" ]; then
			bad="$bad $line(got:${got:-unset})"
		fi
	done < <(cd "$SRC/kernel/configs" && cat $frags |
		awk -F= '/^CONFIG_/ { v[$1] = $0; if (!($1 in o)) o[$1] = n++ }
			END { for (k in v) print o[k], v[k] }' | sort -n | cut -d' ' -f2-)
	[ -z "$bad" ] || die "stage 'configure' failed: fragment symbols not set:$bad (config: $OBJ/.config)"
	echo "$want" >"$OBJ/.harness-config"
}

# build_progress LOG T0: every 30 s, how many objects the build has
# written since it started and for how long it has run, until killed or
# until the harness itself has gone (die() does not stop it).
build_progress() {
	local log=$1 t0=$2 stamp
	stamp=$(mktemp)
	touch -d "@$(($(date +%s) - (SECONDS - t0)))" "$stamp"
	trap 'rm -f "$stamp"; exit 0' TERM
	while sleep 30 && kill -0 $$ 2>/dev/null; do
		echo "    build: $(find "$OBJ" -name '*.o' -newer "$stamp" 2>/dev/null | wc -l) objects built, $((SECONDS - t0)) s (log: $log)"
	done
	rm -f "$stamp"
}

build_kernel() {
	local kind=$1 t0=$SECONDS log ticker
	configure "$kind"
	log=$LOGS/build-$VARIANT-$kind.log
	stage "build: bzImage + modules ($VARIANT/$kind, -j$JOBS, ccache; log: $log)"
	build_progress "$log" "$t0" &
	ticker=$!
	run_logged build "$log" \
		make -C "$SRC" O="$OBJ" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" bzImage modules
	# No wait: the ticker handles TERM when its sleep ends, silently.
	kill "$ticker" 2>/dev/null
	# Modules the harness itself needs (the self-test WARN module) are built
	# outside the kernel tree, so the harness never lands in it.
	rm -rf "$OBJ/harness-modules"
	cp -r "$TOP/harness/modules" "$OBJ/harness-modules"
	run_logged build "$LOGS/build-$VARIANT-$kind.log.ext" \
		make -C "$SRC" O="$OBJ" ARCH=x86_64 CC="ccache gcc" M="$OBJ/harness-modules" modules
	echo "    built in $((SECONDS - t0)) s: $OBJ/arch/x86/boot/bzImage"
}

# Copy an ELF binary and the shared libraries it needs into the initramfs.
copy_binary() {
	local bin=$1 root=$2 lib
	install -D -m755 "$bin" "$root/usr/bin/$(basename "$bin")"
	for lib in $(ldd "$bin" | awk '/=> \// { print $3 } /^[ \t]*\// { print $1 }'); do
		[ -f "$root$lib" ] || install -D -m755 "$lib" "$root$lib"
	done
}

build_initramfs() {
	local kind=$1 root=$OBJ/initramfs kver
	stage "initramfs: busybox, modules, trace-cmd, perf, rt-tests, guest tests"
	kver=$(cat "$OBJ/include/config/kernel.release")
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc,lib64,harness}
	cp /bin/busybox "$root/bin/busybox"
	local a
	for a in $(/bin/busybox --list); do
		[ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
	done
	run_logged initramfs "$LOGS/modinst-$VARIANT-$kind.log" \
		make -C "$SRC" O="$OBJ" ARCH=x86_64 INSTALL_MOD_PATH="$root" \
		INSTALL_MOD_STRIP=1 modules_install
	install -D -m644 "$OBJ"/harness-modules/*.ko -t "$root/harness/modules"
	copy_binary /usr/bin/trace-cmd "$root"
	local c
	for c in "$TOP"/harness/guest/src/*.c; do
		run_logged initramfs "$LOGS/guest-tools.log" gcc -O2 -static -pthread \
			-o "$root/usr/bin/$(basename "$c" .c)" "$c"
	done
	copy_binary /usr/bin/perf "$root"
	# rt-tests: wake-up latency and scheduler load for the accounting rows.
	# Only ./run bench uses them, and says "n/a" without them: a test
	# run does not need the package.
	local rtt
	for rtt in cyclictest hackbench; do
		if [ -x "/usr/bin/$rtt" ]; then
			copy_binary "/usr/bin/$rtt" "$root"
		else
			echo "    initramfs: no /usr/bin/$rtt (rt-tests): its bench rows will be n/a"
		fi
	done
	cp -r "$TOP/harness/guest/." "$root/harness/"
	install -m755 "$TOP/tools/tracing/rcu-tasks-session.sh" "$root/usr/bin/"
	rm -rf "$root/harness/src"
	cp -r "$SRC/tools/testing/selftests/ftrace" "$root/harness/ftrace"
	mv "$root/harness/init" "$root/init"
	chmod 755 "$root/init" "$root"/harness/*.sh "$root"/harness/tests/*.sh
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/tmp:/bin/sh\n' >"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
	echo "$VARIANT $kind $kver" >"$root/harness/kernel"
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$OBJ/initramfs.cpio"
	echo "    $(du -m "$OBJ/initramfs.cpio" | cut -f1) MB: $OBJ/initramfs.cpio"
}

# KVM is used only if a short probe boot really reaches user space; on these
# machines /dev/kvm exists but guests abort or hang.
ACCEL=""
pick_accel() {
	[ -n "$ACCEL" ] && return 0
	# One TCG thread for all vCPUs: with multi-threaded TCG, a vCPU can run
	# a stale translation of code that another vCPU is patching with
	# text_poke_bp(), and then takes an int3 that no longer exists (seen:
	# "Oops: int3" in the idle loop during the ftrace startup selftest).
	# Round-robin vCPUs keep the guest SMP and cross-modifying code coherent.
	ACCEL="-accel tcg,thread=single"
	if [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
		stage "qemu: probing KVM"
		if timeout 30 qemu-system-x86_64 -enable-kvm -cpu host -smp 1 -m 512M \
			-kernel "$OBJ/arch/x86/boot/bzImage" -initrd "$OBJ/initramfs.cpio" \
			-append "console=ttyS0 panic=-1 harness.mode=probe" -display none \
			-no-reboot -serial file:"$LOGS/kvm-probe.log" -monitor none \
			>/dev/null 2>&1 && grep -q 'HARNESS-PROBE-OK' "$LOGS/kvm-probe.log"; then
			ACCEL="-enable-kvm -cpu host"
		fi
	fi
	echo "    accelerator: $ACCEL"
}

# boot MODE TIMEOUT OUTDIR [extra cmdline]: console -> OUTDIR/console.log,
# guest data (results, files) -> OUTDIR/data.txt.  Returns 124 on timeout.
boot() {
	local mode=$1 tmo=$2 out=$3 extra=${4:-} mem=2G rc=0
	mkdir -p "$out"
	rm -f "$out/console.log" "$out/data.txt"
	pick_accel
	stage "boot: $VARIANT kernel, mode $mode (timeout ${tmo}s, console: $out/console.log)"
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$tmo" qemu-system-x86_64 $ACCEL -smp 2 -m $mem \
		-kernel "$OBJ/arch/x86/boot/bzImage" -initrd "$OBJ/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 printk.devkmsg=on harness.mode=$mode $extra ${RUN_APPEND:-}" \
		-display none -no-reboot -monitor none \
		-serial file:"$out/console.log" -serial file:"$out/data.txt" \
		</dev/null >"$out/qemu.log" 2>&1 || rc=$?
	[ -f "$out/data.txt" ] && sed -i 's/\r$//' "$out/data.txt"
	return $rc
}

# extract_files OUTDIR: "@@FILE name" base64 "@@EOF" blocks of data.txt.
extract_files() {
	local out=$1
	awk -v dir="$out" '
		/^@@FILE / { name = $2; f = dir "/" name ".b64"; printf "" > f; next }
		/^@@EOF/ { close(f); name = ""; next }
		name != "" { print >> f }' "$out/data.txt"
	local b
	for b in "$out"/*.b64; do
		[ -e "$b" ] || continue
		base64 -d "$b" >"${b%.b64}" && rm -f "$b"
	done
}

# verdict OUTDIR BOOT_RC: print one line per test and the splats; set
# NPASS/NFAIL.  The guest says what it ran; the console says what the
# kernel thought of it.
NPASS=0
NFAIL=0
VPFX=""		# Prefix of the test names, "rt:" for the PREEMPT_RT pass.
verdict() {
	local out=$1 brc=$2 line nran=0
	while IFS= read -r line; do
		case "$line" in
		"@@ PASS "*) echo "PASS $VPFX${line#@@ PASS }"; NPASS=$((NPASS + 1)); nran=$((nran + 1)) ;;
		"@@ FAIL "*) echo "FAIL $VPFX${line#@@ FAIL }"; NFAIL=$((NFAIL + 1)); nran=$((nran + 1)) ;;
		"@@ SKIP "*) echo "SKIP $VPFX${line#@@ SKIP }"; nran=$((nran + 1)) ;;
		esac
	done <"$out/data.txt"
	# A test filter that matches nothing is a mistake, not a pass.
	if [ "$nran" = 0 ]; then
		echo "FAIL guest: no test ran (filter: '${3:-}'; names are without the number prefix)"
		NFAIL=$((NFAIL + 1))
	fi
	if [ "$brc" = 124 ] || [ "$brc" = 137 ]; then
		echo "FAIL ${VPFX}guest: timed out (console: $out/console.log)"
		NFAIL=$((NFAIL + 1))
	elif ! grep -q '^@@ DONE' "$out/data.txt"; then
		echo "FAIL ${VPFX}guest: did not finish (qemu exit $brc, console: $out/console.log)"
		NFAIL=$((NFAIL + 1))
	fi
	# A splat is charged to the test that was running when it appeared.
	# awk stops printing itself after five lines: "| head -n 5" would
	# kill awk with SIGPIPE on a long report and, under pipefail and
	# set -e, the whole run with exit code 141 before the summary line.
	local splats
	splats=$(awk -v re="$SPLAT_RE" '
		/HARNESS: begin / { sub(/.*HARNESS: begin /, ""); t = $1 }
		/HARNESS: end / { t = "" }
		$0 ~ re { n++; if (n > 5) next
			  sub(/^\[[ 0-9.]*\] /, ""); print (t == "" ? "boot" : t) ": " $0 }
		END { if (n > 5) print "(" n - 5 " more lines of kernel reports in the console log)" }' \
		"$out/console.log")
	if [ -n "$splats" ]; then
		echo "$splats" | sed "s/^/FAIL ${VPFX}kernel-report: /"
		NFAIL=$((NFAIL + 1))
	fi
}

test_kernel() {
	need_packages
	prepare_tree
	build_kernel "$1"
	build_initramfs "$1"
}

cmd_build() {
	local kind=${1:-bench}
	case "$kind" in test|bench|rt) ;; *) die "build: KIND is test, bench or rt, not '$kind'" ;; esac
	test_kernel "$kind"
}

cmd_test() {
	local glob=${1:-} out=$R/$VARIANT/test t0=$SECONDS rc=0
	local tmo=${RUN_TEST_TIMEOUT:-3600} per_test=""
	IN_TEST=1
	case "$tmo" in ''|*[!0-9]*) die "test: RUN_TEST_TIMEOUT must be a number of seconds" ;; esac
	# A run made longer on purpose (harness.churn=100000) lifts each guest
	# test's own timeout with it, less 5 minutes for the boot and the scans.
	[ -n "${RUN_TEST_TIMEOUT:-}" ] && [ "$tmo" -gt 600 ] && per_test="harness.timeout=$((tmo - 300))"
	test_kernel test
	# The harness's own self-test first: a failing test, a WARN and a hung
	# guest must each be caught, or no PASS below means anything.
	local st=$R/$VARIANT/selftest
	boot selftest 60 "$st" "harness.hang=1 kprobe_event=" || rc=$?
	harness_selftest "$st" "$rc"
	rc=0
	# The PREEMPT_RT kernel builds while the guest runs: single-threaded
	# TCG keeps one host CPU busy, the build takes the other, niced.
	local rt=0 rtpid=""
	# Opt-in (RUN_RT=1) until its guest boots: the first full run timed out
	# with an empty console.
	if [ "$VARIANT" = ours ] && [ "${RUN_RT:-0}" = 1 ]; then
		rt=1
		stage "build: PREEMPT_RT test kernel in the background (log: $LOGS/rt-build.log)"
		( renice -n 10 "$BASHPID" >/dev/null; JOBS=2 build_kernel rt && build_initramfs rt ) \
			>"$LOGS/rt-build.log" 2>&1 &
		rtpid=$!
	fi
	# The configurations the test kernel does not cover (DYNAMIC_FTRACE=n,
	# FUNCTION_TRACER=n, modules off, PREEMPT_NONE without Tasks RCU, PREEMPT_RT, no
	# graph tracer) must build too: on the CPU the guest leaves, niced, in
	# a full run (or with RUN_CONFIGCHECK=1).
	local cc=0 ccpid=""
	if [ "$VARIANT" = ours ] && { [ -z "$glob" ] || [ "${RUN_CONFIGCHECK:-0}" = 1 ]; } &&
	   [ "${RUN_CONFIGCHECK:-1}" != 0 ]; then
		cc=1
		stage "build: config checks in the background (log: $LOGS/configcheck.log)"
		( renice -n 19 "$BASHPID" >/dev/null
		  # shellcheck source=harness/configcheck.sh
		  . "$TOP/harness/configcheck.sh"
		  CONFIGCHECK_JOBS=1 config_checks "$LOGS/configcheck" ) >"$LOGS/configcheck.log" 2>&1 &
		ccpid=$!
	fi
	boot test "$tmo" "$out" "$per_test${glob:+ harness.tests=$glob}" || rc=$?
	verdict "$out" "$rc" "$glob"
	if [ "$cc" = 1 ]; then
		configcheck_verdict "$ccpid"
	fi
	if [ "$rt" = 1 ]; then
		rt_pass "$rtpid"
	fi
	echo "    ./run test took $((SECONDS - t0)) s; logs: $out"
	echo "$NPASS passed, $NFAIL failed"
	[ "$NFAIL" = 0 ]
}

# configcheck_verdict PID: wait for the background config checks and count
# each config's PASS/FAIL line as a result.
configcheck_verdict() {
	local t0=$SECONDS l
	wait "$1" || true
	echo "    config checks: waited $((SECONDS - t0)) s after the guest"
	while IFS= read -r l; do
		case "$l" in
		"PASS config-"*) echo "$l"; NPASS=$((NPASS + 1)) ;;
		"FAIL config-"*) echo "$l"; NFAIL=$((NFAIL + 1)) ;;
		"    "*) echo "$l" ;;
		"configcheck: "*) echo "    $l" ;;
		esac
	done <"$LOGS/configcheck.log"
	grep -q '^configcheck: ' "$LOGS/configcheck.log" || {
		tail -n 20 "$LOGS/configcheck.log" >&2
		echo "FAIL config-checks: did not finish (log: $LOGS/configcheck.log)"
		NFAIL=$((NFAIL + 1))
	}
}

# The tests that run on the PREEMPT_RT kernel: the RCU-tasks core and a
# short trampoline churn, under lockdep's wait-context checks.
RT_TESTS="rcutasks-*,tramp-churn"
RT_APPEND="harness.churn=300"

# rt_pass PID: wait for the background build of the PREEMPT_RT kernel
# (PID) and run RT_TESTS on it; results are named "rt:<test>".
rt_pass() {
	local out=$R/$VARIANT/test-rt rc=0
	if ! wait "$1"; then
		tail -n 25 "$LOGS/rt-build.log" >&2
		echo "FAIL rt:build: the PREEMPT_RT kernel did not build (log: $LOGS/rt-build.log)"
		NFAIL=$((NFAIL + 1))
		return 0
	fi
	sed -n 's/^    built in/    PREEMPT_RT kernel built in/p' "$LOGS/rt-build.log"
	OBJ=$B/$VARIANT/obj-rt
	boot test 1500 "$out" "harness.tests=$RT_TESTS $RT_APPEND" || rc=$?
	VPFX="rt:" verdict "$out" "$rc" "$RT_TESTS"
	OBJ=$B/$VARIANT/obj-test
}

# soak_boot MINUTES OUTDIR: boot the test kernel for a soak of MINUTES, with
# a quarter of an hour to spare for the boot, the wind-down and the scans.
soak_boot() {
	boot soak $(($1 * 60 + 900)) "$2" "harness.soak=$1"
}

# ./run soak [MINUTES]: rcutorture tasks and the trampoline churn together on
# the test kernel for MINUTES (default 30); "N passed, N failed" as for test.
cmd_soak() {
	local min=${1:-30} out=$R/$VARIANT/soak t0=$SECONDS rc=0
	case "$min" in ''|*[!0-9]*|0) die "soak: MINUTES must be a positive number" ;; esac
	IN_TEST=1
	test_kernel test
	soak_boot "$min" "$out" || rc=$?
	verdict "$out" "$rc"
	echo "    ./run soak $min took $((SECONDS - t0)) s; logs: $out"
	echo "$NPASS passed, $NFAIL failed"
	[ "$NFAIL" = 0 ]
}

# mutant_apply FILE [-R]: put one fault back into the tree ("Revert:" a
# patch of the series, or apply FILE's own diff); -R takes it out again.
mutant_apply() {
	local m=$1 dir=${2:-} rev p
	rev=$(sed -n 's/^Revert: //p' "$m")
	if [ -n "$rev" ]; then
		p=$TOP/patches/$rev
		[ -f "$p" ] || die "mutant $(basename "$m"): patches/$rev does not exist"
		[ "$dir" = -R ] && dir="" || dir=-R
	else
		p=$m
	fi
	# shellcheck disable=SC2086
	(cd "$SRC" && patch -p1 -s --no-backup-if-mismatch -r - $dir <"$p") \
		>"$LOGS/mutant.log" 2>&1 ||
		{ cat "$LOGS/mutant.log" >&2; die "mutant $(basename "$m") does not apply${dir:+ in reverse}"; }
}

# glob_names GLOB: the guest tests (names without the number prefix) that
# GLOB, or any of GLOB1,GLOB2,..., selects, as harness/guest/run-tests.sh
# matches them.
glob_names() {
	local t name
	for t in "$TOP"/harness/guest/tests/*.sh; do
		name=$(basename "$t" .sh)
		name=${name#[0-9][0-9][0-9]-}
		name_in_glob "$name" "$1" && echo "$name"
	done
	return 0
}

# name_in_glob NAME GLOB: NAME is selected by GLOB (comma-separated).
name_in_glob() {
	# "local -": the caller's noglob setting comes back on every return.
	local - g
	local IFS=,
	set -f
	for g in $2; do
		# shellcheck disable=SC2254 # a glob, on purpose
		case "$1" in $g) return 0 ;; esac
	done
	return 1
}

# mutant_selects GLOB: the result names a mutant's run is judged by, one a
# line: the guest tests GLOB selects, or "soak" for the soak (GLOB "soak";
# its result lines and the kernel reports during it are named "soak").
mutant_selects() {
	if [ "$1" = soak ]; then
		echo soak
	else
		glob_names "$1"
	fi
}

# name_selected NAME NAMES: NAME is one of the lines of NAMES, literally;
# never "boot", verdict's name for a kernel report outside any test.
name_selected() {
	[ -n "$1" ] && [ "$1" != boot ] && grep -qxF -e "$1" <<<"$2"
}

# mutant_check FILE: FILE's "Run:" line is "test GLOB" or "rt GLOB" with a
# GLOB that selects a test, or "soak MIN"; else die, naming the mutant.
# Sets MUTANT_RUN, MUTANT_KIND and MUTANT_ARG.
mutant_check() {
	local name
	name=$(basename "$1" .patch)
	MUTANT_RUN=$(sed -n 's/^Run: //p' "$1")
	read -r MUTANT_KIND MUTANT_ARG <<<"$MUTANT_RUN"
	case "$MUTANT_KIND" in
	test|rt)
		[ -n "$(glob_names "$MUTANT_ARG")" ] ||
			die "mutant $name: 'Run: $MUTANT_RUN' selects no test (names are without the number prefix)" ;;
	soak)
		case "$MUTANT_ARG" in ''|*[!0-9]*|0)
			die "mutant $name: 'Run: $MUTANT_RUN': MIN must be a positive number" ;;
		esac ;;
	*) die "mutant $name: Run: is 'test GLOB', 'rt GLOB' or 'soak MIN', not '$MUTANT_RUN'" ;;
	esac
}

# mutant_judge VERDICT CONSOLE GLOB: "CAUGHT <why>" only if a test GLOB
# selects (GLOB "soak": the soak) failed, a kernel report was charged to
# one, or the guest hung or died while one was running; "ERROR <why>" if
# something else failed (a boot that never reached the tests, a kernel
# report at boot, a guest that ran none of them: that proves nothing about
# the mutant); "MISSED" if everything passed.  The failing name must be
# one of those selected, not just match GLOB: "*" matches "boot" too.
mutant_judge() {
	local v=$1 console=$2 glob=$3 line name last names
	names=$(mutant_selects "$glob")
	while IFS= read -r line; do
		name=${line#FAIL }
		name=${name#rt:}
		case "$name" in
		"kernel-report: "*) name=${name#kernel-report: } ;;
		"guest: "*) continue ;;
		esac
		name=${name%%:*}
		if name_selected "$name" "$names"; then
			echo "CAUGHT $line"
			return
		fi
	done < <(grep '^FAIL ' "$v")
	last=$(awk '/HARNESS: begin / { sub(/.*HARNESS: begin /, ""); t = $1 }
		    /HARNESS: end / { t = "" } END { print t }' "$console" 2>/dev/null)
	if name_selected "$last" "$names" &&
	   grep -qE '^FAIL (rt:)?guest: (timed out|did not finish)' "$v"; then
		echo "CAUGHT the guest hung or died in $last: $(grep -m1 -E '^FAIL (rt:)?guest: ' "$v")"
		return
	fi
	if grep -q '^FAIL ' "$v"; then
		echo "ERROR inconclusive, no selected test failed: $(grep '^FAIL ' "$v" | head -n 3 | tr '\n' ' ')"
	else
		echo "MISSED"
	fi
}

# ./run mutants [NAME...]: for each harness/mutants/NAME.patch, put the
# fault it describes back into the patched test kernel, run the tests (or
# the soak) it names, and demand that they fail.  A test that still passes
# with its fault back in proves nothing: that mutant is "missed" and the
# command fails.  Builds in build/mutants, so the main tree is never
# changed; each mutant costs an incremental build.
cmd_mutants() {
	local m name run kind arg out rc caught=0 missed=0 t0=$SECONDS summary="" judged
	local MUTANT_RUN MUTANT_KIND MUTANT_ARG
	local list=()
	if [ $# -gt 0 ]; then
		for name in "$@"; do
			m=$TOP/harness/mutants/${name%.patch}.patch
			[ -f "$m" ] || die "mutants: no harness/mutants/${name%.patch}.patch"
			list+=("$m")
		done
	else
		list=("$TOP"/harness/mutants/*.patch)
	fi
	IN_TEST=1
	# Every Run: line first: a bad one fails in seconds, not after a build.
	for m in "${list[@]}"; do
		mutant_check "$m"
	done
	B=${RUN_BUILD_DIR:-$TOP/build}/mutants
	LOGS=$B/logs
	export CCACHE_BASEDIR=$B
	test_kernel test
	for m in "${list[@]}"; do
		name=$(basename "$m" .patch)
		mutant_check "$m"
		run=$MUTANT_RUN kind=$MUTANT_KIND arg=$MUTANT_ARG
		stage "mutant $name: $(sed -n 's/^Guards: //p' "$m")"
		echo "$name" >"$SRC/.harness-mutant"
		mutant_apply "$m"
		out=$R/mutants/$name
		rc=0
		if [ "$kind" = rt ]; then
			build_kernel rt
			build_initramfs rt
			boot test 1200 "$out" "harness.tests=$arg $RT_APPEND" || rc=$?
			OBJ=$B/$VARIANT/obj-test
		elif [ "$kind" = soak ]; then
			build_kernel test
			build_initramfs test
			soak_boot "$arg" "$out" || rc=$?
		else
			build_kernel test
			build_initramfs test
			boot test 1200 "$out" "harness.tests=$arg" || rc=$?
		fi
		NPASS=0 NFAIL=0
		verdict "$out" "$rc" "$arg" >"$out/verdict.txt"
		sed 's/^/    /' "$out/verdict.txt"
		mutant_apply "$m" -R
		rm -f "$SRC/.harness-mutant"
		# The soak's results, and the kernel reports while it runs, are
		# named "soak" (harness/guest/soak.sh); its ARG is minutes.
		[ "$kind" = soak ] && arg=soak
		judged=$(mutant_judge "$out/verdict.txt" "$out/console.log" "$arg")
		case "$judged" in
		CAUGHT*) caught=$((caught + 1))
			 summary="$summary
CAUGHT $name: ${judged#CAUGHT }" ;;
		ERROR*) missed=$((missed + 1))
			summary="$summary
ERROR $name: ${judged#ERROR } (verdict: $out/verdict.txt)" ;;
		*) missed=$((missed + 1))
		   summary="$summary
MISSED $name: $run passed with the fault back in" ;;
		esac
	done
	# Leave the mutant tree built as it is on main.
	build_kernel test >/dev/null
	echo "$summary" | sed '/^$/d'
	echo "    ./run mutants took $((SECONDS - t0)) s; logs: $R/mutants"
	echo "$caught passed, $missed failed"
	[ "$missed" = 0 ]
}

# harness_selftest OUTDIR BOOT_RC: run the real verdict on a guest that
# fails a test, WARNs and then hangs, and demand that it catches all three.
harness_selftest() {
	local out=$1 brc=$2 v saved_p=$NPASS saved_f=$NFAIL
	v=$(verdict "$out" "$brc")
	NPASS=$saved_p NFAIL=$saved_f
	check_selftest() {
		if grep -qE "$2" <<<"$v"; then
			echo "PASS $1"; NPASS=$((NPASS + 1))
		else
			echo "FAIL $1: verdict did not report /$2/ (console: $out/console.log)"
			NFAIL=$((NFAIL + 1))
		fi
	}
	check_selftest harness-selftest-failing-test '^FAIL deliberate-failure: this test fails on purpose'
	check_selftest harness-selftest-warn '^FAIL kernel-report: .*WARNING:.*harness_warn'
	check_selftest harness-selftest-hang '^FAIL guest: timed out'
	check_selftest harness-selftest-passing-test '^PASS deliberate-pass'
	mutant_judge_selftest
}

# mutant_judge_selftest: ./run mutants counts a mutant as caught only when
# a test it selects (or the soak) fails (a failed boot, a WARN at boot or a
# filter that selects nothing once passed for a catch).  Synthetic
# verdicts, one result each.
mutant_judge_selftest() {
	local d got
	d=$(mktemp -d)
	judge_case() {	# NAME EXPECTED-PREFIX GLOB VERDICT-LINES [CONSOLE-LINES]
		printf '%b' "$4" >"$d/v"
		printf '%b' "${5:-}" >"$d/c"
		got=$(mutant_judge "$d/v" "$d/c" "$3")
		if [ "${got%% *}" = "$2" ]; then
			echo "PASS harness-selftest-mutant-$1"; NPASS=$((NPASS + 1))
		else
			echo "FAIL harness-selftest-mutant-$1: expected $2, got '$got'"; NFAIL=$((NFAIL + 1))
		fi
	}
	judge_case no-test-ran ERROR tramp-bad-input \
		"FAIL guest: no test ran (filter: 'tramp-bad-input')\nFAIL guest: timed out (console: x)\n"
	judge_case selected-test-failed CAUGHT tramp-bad-input \
		"FAIL tramp-bad-input: the bad write succeeded (exit 1)\nFAIL guest: did not finish\n"
	judge_case boot-warn ERROR tramp-churn \
		"PASS tramp-churn (5 ms)\nFAIL kernel-report: boot: WARNING: at x\n"
	judge_case report-in-test CAUGHT 'tramp-*' \
		"PASS tramp-churn (5 ms)\nFAIL kernel-report: tramp-churn: BUG: KASAN: x\n"
	judge_case other-test-failed ERROR tramp-churn \
		"PASS tramp-churn (5 ms)\nFAIL tramp-hotplug: x (exit 1)\n"
	judge_case all-passed MISSED tramp-churn "PASS tramp-churn (5 ms)\n"
	judge_case hang-in-test CAUGHT 'tramp-*' "FAIL guest: no test ran (filter: 'tramp-*')\nFAIL guest: timed out (console: x)\n" \
		"[ 1.0] HARNESS: begin tramp-release-locks\n"
	judge_case hang-at-boot ERROR 'tramp-*' "FAIL guest: no test ran (filter: 'tramp-*')\nFAIL guest: timed out (console: x)\n" \
		"[ 1.0] Booting\n"
	judge_case rt-selected CAUGHT 'rcutasks-*' "FAIL rt:rcutasks-idle: slow (exit 1)\n"
	# A broad glob matches "boot" too: a WARN at boot is no test's.
	judge_case boot-warn-any-glob ERROR '*' \
		"PASS tramp-churn (5 ms)\nFAIL kernel-report: boot: WARNING: at x\n"
	judge_case soak-failed CAUGHT soak \
		"FAIL soak: 3 min: 0 GPs, kmemleak 4 (exit 1)\n"
	judge_case report-in-soak CAUGHT soak \
		"PASS soak: 3 min: 9 GPs\nFAIL kernel-report: soak: BUG: KASAN: x\n"
	judge_case soak-boot-warn ERROR soak \
		"PASS soak: 3 min: 9 GPs\nFAIL kernel-report: boot: WARNING: at x\n"
	judge_case hang-in-soak CAUGHT soak "FAIL guest: no test ran (filter: '3')\nFAIL guest: timed out (console: x)\n" \
		"[ 1.0] HARNESS: begin soak\n"
	judge_case soak-hang-at-boot ERROR soak "FAIL guest: no test ran (filter: '3')\nFAIL guest: timed out (console: x)\n" \
		"[ 1.0] Booting\n"
	judge_case soak-passed MISSED soak "PASS soak: 3 min: 9 GPs\n"
	# A bad Run: line must be refused before the build: in a subshell,
	# as mutant_check dies.
	local bad="" r
	for r in "test no-such-test" rt soak "soak 3m" "tests tramp-churn"; do
		printf 'Run: %s\n' "$r" >"$d/m.patch"
		(mutant_check "$d/m.patch") >/dev/null 2>&1 && bad="$bad, accepted '$r'"
	done
	for r in "test tramp-churn" "rt rcutasks-*" "soak 3"; do
		printf 'Run: %s\n' "$r" >"$d/m.patch"
		(mutant_check "$d/m.patch") >/dev/null 2>&1 || bad="$bad, refused '$r'"
	done
	if [ -z "$bad" ]; then
		echo "PASS harness-selftest-mutant-run-line"; NPASS=$((NPASS + 1))
	else
		echo "FAIL harness-selftest-mutant-run-line: mutant_check ${bad#, }"; NFAIL=$((NFAIL + 1))
	fi
	# name_in_glob must leave the caller's noglob setting as it was.
	local f1 f2
	set -f; name_in_glob tramp-churn 'tramp-*'; f1=$-; set +f
	name_in_glob tramp-churn 'x,tramp-*'; f2=$-
	if [[ $f1 == *f* ]] && [[ $f2 != *f* ]]; then
		echo "PASS harness-selftest-mutant-noglob"; NPASS=$((NPASS + 1))
	else
		echo "FAIL harness-selftest-mutant-noglob: name_in_glob changed set -f"; NFAIL=$((NFAIL + 1))
	fi
	if [ -z "$(glob_names no-such-test)" ] && [ "$(glob_names tramp-bad-input)" = tramp-bad-input ]; then
		echo "PASS harness-selftest-mutant-glob"; NPASS=$((NPASS + 1))
	else
		echo "FAIL harness-selftest-mutant-glob: glob_names selects '$(glob_names no-such-test)' for no-such-test"; NFAIL=$((NFAIL + 1))
	fi
	rm -rf "$d"
}

cmd_demo() {
	local out=$R/$VARIANT/demo rc=0
	test_kernel bench
	boot demo 600 "$out" || rc=$?
	extract_files "$out"
	stage "record: trace-cmd report (excerpt)"
	sed -n '/^@@ REPORT/,/^@@ ENDREPORT/p' "$out/data.txt" | sed '1d;$d'
	verdict "$out" "$rc" >"$out/verdict.txt"
	cat "$out/verdict.txt"
	[ -s "$out/trace.dat" ] || die "demo: no trace.dat came back (console: $out/console.log)"
	echo "    trace.dat for KernelShark: $out/trace.dat"
	echo "    kernelshark $out/trace.dat"
	demo_perf_reports "$out"
	[ -s "$out/churn.dat" ] && cmd_review "$out/churn.dat"
	grep -q '^FAIL' "$out/verdict.txt" && return 1
	return 0
}

# The guest's perf.data of the churn, read on the host by the project's perf
# scripts with the distribution's perf.
demo_perf_reports() {
	local out=$1 py=$TOP/tools/perf/scripts/python
	[ -s "$out/perf.data" ] || return 0
	stage "perf: ftrace-tramp-reclaim.py on the guest's perf.data"
	perf script -i "$out/perf.data" -s "$py/ftrace-tramp-reclaim.py" \
		2>"$LOGS/perf-script.log" | tee "$out/tramp-reclaim.txt"
	stage "perf: ftrace-lock.py (locks named from the guest's kallsyms)"
	perf script -i "$out/perf.data" -s "$py/ftrace-lock.py" \
		"$out/data.kallsyms" 2>>"$LOGS/perf-script.log" | tee "$out/ftrace-lock.txt"
}

cmd_shell() {
	test_kernel "$SHELL_KIND"
	pick_accel
	stage "boot: interactive shell ($VARIANT/$SHELL_KIND); 'reboot -f' leaves"
	# shellcheck disable=SC2086
	qemu-system-x86_64 $ACCEL -smp 2 -m 2G -kernel "$OBJ/arch/x86/boot/bzImage" \
		-initrd "$OBJ/initramfs.cpio" -nographic -no-reboot \
		-append "console=ttyS0 panic=-1 printk.devkmsg=on harness.mode=shell"
}

cmd_bench() {
	# shellcheck source=harness/bench.sh
	. "$TOP/harness/bench.sh"
	bench_main "$@"
}

# ./run review [TRACE]: render KernelShark's view of a recorded trace.dat to
# a PNG under Xvfb, so the timeline can be seen without a desktop.  The view
# is a session written by tools/tracing/rcu-tasks-kshark-session.py: CPU
# plots, and task plots for the GP kthread and the trampoline churn.  By
# default the demo's churn recording, else its tracefs session.
# KernelShark shows a modal dialog when run as root: run it as nobody.
cmd_review() {
	local dat=${1:-} png work
	if [ -z "$dat" ]; then
		dat=$R/$VARIANT/demo/churn.dat
		[ -f "$dat" ] || dat=$R/$VARIANT/demo/trace.dat
	fi
	[ -f "$dat" ] || die "review: no $dat (run ./run demo first)"
	HOST_PKGS="kernelshark trace-cmd xvfb xauth imagemagick" need_packages
	png=${dat%.dat}.png
	work=$(mktemp -d /tmp/kshark.XXXXXX)
	cp "$dat" "$work/trace.dat"
	"$TOP/tools/tracing/rcu-tasks-kshark-session.py" "$work/trace.dat" \
		"$work/session.json" || die "review: no session for $dat"
	"$TOP/tools/tracing/rcu-tasks-kshark-session.py" "$dat" >/dev/null
	chmod -R a+rwX "$work"
	stage "review: kernelshark -s session under Xvfb -> $png"
	local user=()
	[ "$(id -u)" = 0 ] && user=(runuser -u nobody --)
	run_logged review "$LOGS/review.log" "${user[@]}" env HOME="$work" \
		XDG_RUNTIME_DIR="$work" xvfb-run -a -s "-screen 0 1600x1000x24" sh -c '
			kernelshark -s "$0/session.json" &
			ks=$!
			sleep 25
			import -window root "$0/view.png"
			kill $ks' "$work"
	cp "$work/view.png" "$png"
	rm -rf "$work"
	echo "    $png"
	echo "    the same view on a desktop: kernelshark -s ${dat%.dat}.kss.json"
}
