# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Config-build checks: the series must build in the configurations that
# the test and benchmark kernels never use.  Each one is tinyconfig +
# kernel/configs/rcu-tasks.config + an override, built out of tree
# (O=$B/configcheck/NAME) from the patched tree that prepare_tree made
# ($SRC), so it never touches the test kernel's objects.  Sourced after
# harness/lib.sh; call config_checks LOGDIR.
#
# Meant to run in the background while a guest runs, on the CPU the guest
# leaves (single-threaded TCG uses one):
#
#	CONFIGCHECK_JOBS=1 nice -n 19 ... config_checks "$LOGS/configcheck" &
#
# It reads nothing from stdin, writes only under $B/configcheck and
# LOGDIR, and changes no variable of the caller's (it runs in a
# subshell).  Output: one "PASS config-NAME" or "FAIL config-NAME: ..."
# line per config (a failure names the config, the command and its log),
# then "configcheck: N passed, N failed in S s".  Returns non-zero if any
# config failed.

# NAME|OVERRIDE SYMBOLS|TARGETS.  Every symbol listed must have that value
# in the resulting .config ("=n": unset), or the config fails: an override
# that a dependency silently undid checks nothing.  "vmlinux" in TARGETS
# is a final link.
CONFIGCHECK_CONFIGS=(
	"no-dynftrace|CONFIG_DYNAMIC_FTRACE=n CONFIG_FUNCTION_TRACER=y|dirs vmlinux"
	"no-functrace|CONFIG_FUNCTION_TRACER=n CONFIG_STACK_TRACER=n CONFIG_FTRACE=y|dirs"
	"no-tasksrcu|CONFIG_PREEMPT_NONE=y CONFIG_PREEMPT=n CONFIG_PREEMPTION=n CONFIG_TASKS_RCU=n CONFIG_DYNAMIC_FTRACE=y|dirs"
	"no-graph|CONFIG_FUNCTION_GRAPH_TRACER=n CONFIG_DYNAMIC_FTRACE=y|dirs"
	"no-modules|CONFIG_MODULES=n CONFIG_DYNAMIC_FTRACE=y|dirs"
	"rt|CONFIG_EXPERT=y CONFIG_PREEMPT_RT=y CONFIG_PREEMPT=n CONFIG_DYNAMIC_FTRACE=y|dirs"
)

# The directories holding every object the series adds or changes.
CONFIGCHECK_DIRS="kernel/trace/ kernel/rcu/ arch/x86/kernel/ samples/ftrace/"

# configcheck_series_files: the C sources and headers the series adds or
# changes, as paths in the kernel tree.
configcheck_series_files() {
	{
		sed -n 's|^+++ b/\(.*\.[ch]\)$|\1|p' "$TOP"/patches/*.patch
		(cd "$TOP" && find arch include kernel samples -name '*.[ch]' 2>/dev/null)
	} | LC_ALL=C sort -u
}

# configcheck_one NAME OVERRIDES TARGETS LOGDIR
configcheck_one() {
	local name=$1 over=$2 targets=$3 logdir=$4
	local obj=$B/configcheck/$name log=$logdir/$name.log
	local mk=(make -C "$SRC" O="$obj" ARCH=x86_64 CC="ccache gcc"
		HOSTCC="ccache gcc" -j"${CONFIGCHECK_JOBS:-$JOBS}")
	local frag=$obj/override.config s k v got bad="" t objs f w

	mkdir -p "$obj"
	: >"$log"
	fail_cc() {
		echo "FAIL config-$name: $1 (log: $log)"
		tail -n 15 "$log" | sed 's/^/    /'
		return 1
	}
	printf '%s\n' $over >"$frag"
	# Configure: the committed fragment, then the override on top.
	"${mk[@]}" tinyconfig rcu-tasks.config >>"$log" 2>&1 ||
		{ fail_cc "'make tinyconfig rcu-tasks.config' failed"; return 1; }
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$frag" >>"$log" 2>&1 ||
		{ fail_cc "'merge_config.sh -m $frag' failed"; return 1; }
	"${mk[@]}" olddefconfig >>"$log" 2>&1 ||
		{ fail_cc "'make olddefconfig' failed"; return 1; }
	for s in $over; do
		k=${s%%=*} v=${s#*=}
		got=$(grep -E "^$k=" "$obj/.config" || true)
		if [ "$v" = n ]; then
			[ -z "$got" ] || bad="$bad $s(got:$got)"
		elif [ "$got" != "$s" ]; then
			bad="$bad $s(got:${got:-unset})"
		fi
	done
	[ -z "$bad" ] ||
		{ fail_cc "override did not take effect:$bad (config: $obj/.config)"; return 1; }

	# Build the series' directories (and link, if asked).
	t=""
	case " $targets " in *" dirs "*) t=$CONFIGCHECK_DIRS ;; esac
	case " $targets " in *" vmlinux "*) t="$t vmlinux" ;; esac
	echo "+ ${mk[*]} $t" >>"$log"
	# shellcheck disable=SC2086
	"${mk[@]}" $t >>"$log" 2>&1 ||
		{ fail_cc "'${mk[*]} $t' failed"; return 1; }

	# W=1 on the series' own files that this config compiles.
	objs=""
	while read -r f; do
		case "$f" in *.c) ;; *) continue ;; esac
		[ -f "$obj/${f%.c}.o" ] && objs="$objs ${f%.c}.o"
	done < <(configcheck_series_files)
	if [ -n "$objs" ]; then
		echo "+ ${mk[*]} W=1$objs" >>"$log"
		# shellcheck disable=SC2086
		"${mk[@]}" W=1 $objs >>"$log" 2>&1 ||
			{ fail_cc "'${mk[*]} W=1$objs' failed"; return 1; }
	fi

	# Any warning in a file of the series fails the config.
	w=$(configcheck_series_files | sed 's|$|:|' |
		grep -F -f - "$log" | grep -E ':[0-9]+:[0-9]+: warning:' | sort -u || true)
	if [ -n "$w" ]; then
		echo "$w" >>"$log"
		fail_cc "warnings in the series' files: $(echo "$w" | sed -n 1,3p | tr '\n' ' ')"
		return 1
	fi
	echo "PASS config-$name ($(echo "$objs" | wc -w) series objects, W=1 clean${t:+; built:$t})"
}

# config_checks LOGDIR: run every config of CONFIGCHECK_CONFIGS (or only
# those named in CONFIGCHECK_ONLY, comma-separated).  Jobs:
# CONFIGCHECK_JOBS, else $JOBS.
config_checks() (
	local logdir=${1:?config_checks LOGDIR} c name over targets
	local np=0 nf=0 t0=$SECONDS
	SRC=${SRC:-$B/ours/src}
	if [ ! -f "$SRC/.harness-stamp" ]; then
		echo "FAIL configcheck: no prepared tree at $SRC (run prepare_tree first)"
		return 1
	fi
	mkdir -p "$logdir"
	for c in "${CONFIGCHECK_CONFIGS[@]}"; do
		IFS='|' read -r name over targets <<<"$c"
		case ",${CONFIGCHECK_ONLY:-$name}," in *",$name,"*) ;; *) continue ;; esac
		if configcheck_one "$name" "$over" "$targets" "$logdir"; then
			np=$((np + 1))
		else
			nf=$((nf + 1))
		fi
	done
	echo "configcheck: $np passed, $nf failed in $((SECONDS - t0)) s (logs: $logdir)"
	[ "$nf" = 0 ]
)
