#!/bin/sh
# description: bad input to set_ftrace_filter and to trace_stat/ftrace_tramp is refused and leaves the state as it was
# timeout: 240
# variant: ours
. /harness/lib.sh
T=/sys/kernel/tracing
ST=$T/trace_stat/ftrace_tramp
mkdir $T/instances/bad
F=$T/instances/bad/set_ftrace_filter
echo 'schedule' >$F
before=$(cat $F)
for v in 'no_such_function_xyz' 'vfs_read:bogus_command' '!!!' \
	"$(head -c 300 /dev/zero | tr '\0' a)"; do
	if echo "$v" >>$F 2>/dev/null; then
		fail "set_ftrace_filter accepted '$(echo "$v" | cut -c1-40)'"
	fi
	[ "$(cat $F)" = "$before" ] || fail "set_ftrace_filter changed by refused '$v'"
done
# Random bytes and a huge write.
head -c 4096 /dev/urandom >/tmp/rand
cat /tmp/rand >>$F 2>/dev/null && fail "set_ftrace_filter accepted random bytes"
[ "$(cat $F)" = "$before" ] || fail "set_ftrace_filter changed by random bytes"
# Through one open file: after a failed write, a later good write must
# fail too (release installs nothing from this file), not return success
# for a token that is then dropped.
exec 3>>$F
echo no_such_function_xyz >&3 2>/dev/null && fail "the bad write through fd 3 succeeded"
if echo vfs_read >&3 2>/dev/null; then
	exec 3>&-
	fail "a write after a failed one succeeded, yet release drops it (filter: $(cat $F | tr '\n' ' '))"
fi
exec 3>&-
[ "$(cat $F)" = "$before" ] || fail "set_ftrace_filter changed by a file whose write failed"
# The poisoning ends with the file: a new open writes normally.
echo vfs_read >>$F || fail "a write through a new file after a poisoned one failed"
grep -qx vfs_read $F || fail "vfs_read not in the filter after a good append"
echo schedule >$F || fail "restoring the filter failed"
# A failed truncating write keeps the cached :mod: entries (functions of
# a module that is not loaded) along with the hash: the truncation at
# open must not have freed them.
echo '*:mod:rtt_no_such_module' >$F || fail "caching a :mod: entry failed"
echo no_such_function_xyz >$F 2>/dev/null && fail "the bad truncating write succeeded"
grep -q ':mod:rtt_no_such_module' $F ||
	fail "a failed truncating write dropped the cached :mod: entry (filter: $(cat $F | tr '\n' ' '))"
# A good truncating write replaces them.
echo schedule >$F || fail "restoring the filter failed"
grep -q ':mod:' $F && fail "a good truncating write kept the :mod: entry"
[ "$(cat $F)" = "$before" ] || fail "filter not restored: $(cat $F | tr '\n' ' ')"
# Two files open at once: the failed one must not bring back the :mod:
# entry that the good one's truncation dropped.
echo '*:mod:rtt_no_such_module' >$F || fail "caching a :mod: entry failed"
exec 3>$F
exec 4>$F
echo schedule >&4 || fail "the good write through fd 4 failed"
exec 4>&-
echo no_such_function_xyz >&3 2>/dev/null && fail "the bad write through fd 3 succeeded"
exec 3>&-
grep -q ':mod:' $F &&
	fail "a failed release brought back a :mod: entry that another file's truncation dropped (filter: $(cat $F | tr '\n' ' '))"
[ "$(cat $F)" = "$before" ] || fail "filter after two files: $(cat $F | tr '\n' ' ')"
# A release does not count another open file's :mod: entries: if that
# file's write then fails, its entries go, and a filter marked as having
# module entries without any would trace nothing.
exec 3>$F
exec 4>>$F
echo 'rtt_foo:mod:rtt_no_such_module' >&4 || fail "caching a :mod: entry through fd 4 failed"
exec 3>&-
echo no_such_function_xyz >&4 2>/dev/null && fail "the bad write through fd 4 succeeded"
exec 4>&-
grep -q ':mod:' $F && fail "a failed write through fd 4 left the :mod: entry it cached (filter: $(cat $F | tr '\n' ' '))"
[ "$(cat $F)" = "#### all functions enabled ####" ] ||
	fail "an empty filter reads back as '$(cat $F | tr '\n' ' ')' after another file's failed :mod: write"
echo schedule >$F || fail "restoring the filter failed"
# Nor does a truncation drop them: the :mod: entry of a file still open
# is that file's, kept or freed by its own release.
exec 4>>$F
echo 'rtt_foo:mod:rtt_no_such_module' >&4 || fail "caching a :mod: entry through fd 4 failed"
echo vfs_read >$F || fail "the good truncating write through another file failed"
exec 4>&-
grep -qx 'rtt_foo:mod:rtt_no_such_module' $F ||
	fail "another file's truncation dropped the :mod: entry of a file still open (filter: $(cat $F | tr '\n' ' '))"
echo schedule >$F || fail "restoring the filter failed"
# Nor another file's "!func:mod:m": there is no such entry in force.
exec 4>>$F
echo 'rtt_foo:mod:rtt_no_such_module' >&4 || fail "caching a :mod: entry through fd 4 failed"
echo '!rtt_foo:mod:rtt_no_such_module' >>$F 2>/dev/null &&
	fail "another file's '!rtt_foo:mod:rtt_no_such_module' found the entry of a file still open"
exec 4>&-
grep -qx 'rtt_foo:mod:rtt_no_such_module' $F ||
	fail "another file's '!func:mod:m' dropped the :mod: entry of a file still open (filter: $(cat $F | tr '\n' ' '))"
echo schedule >$F || fail "restoring the filter failed"
# "!func:mod:m" drops the entry when its write goes in, not when written:
# a failed write keeps the entry, or the filter, marked as having module
# entries without any, would trace nothing.
echo 'rtt_foo:mod:rtt_no_such_module' >$F || fail "caching a :mod: entry failed"
echo '!rtt_foo:mod:rtt_no_such_module no_such_function_xyz' >>$F 2>/dev/null &&
	fail "the write with a bad second token succeeded"
[ "$(cat $F)" = "rtt_foo:mod:rtt_no_such_module" ] ||
	fail "a failed write's '!func:mod:m' dropped the :mod: entry (filter: '$(cat $F | tr '\n' ' ')')"
echo '!rtt_foo:mod:rtt_no_such_module' >>$F || fail "dropping the :mod: entry failed"
[ "$(cat $F)" = "#### all functions enabled ####" ] ||
	fail "after a good '!func:mod:m' of the only entry, the filter reads back as '$(cat $F | tr '\n' ' ')'"
echo schedule >$F || fail "restoring the filter failed"
# It drops only the entries there when it was written.
echo 'rtt_foo:mod:rtt_no_such_module' >$F || fail "caching a :mod: entry failed"
exec 4>>$F
echo '!rtt_foo:mod:rtt_no_such_module' >&4 || fail "the '!func:mod:m' through fd 4 failed"
echo 'rtt_foo:mod:rtt_no_such_module' >>$F || fail "caching the :mod: entry again failed"
exec 4>&-
grep -qx 'rtt_foo:mod:rtt_no_such_module' $F ||
	fail "a '!func:mod:m' dropped an entry cached after it was written (filter: '$(cat $F | tr '\n' ' ')')"
echo schedule >$F || fail "restoring the filter failed"
# The same for set_ftrace_notrace, which has its own list.
N=$T/instances/bad/set_ftrace_notrace
echo '*:mod:rtt_no_such_module' >$N || fail "caching a notrace :mod: entry failed"
echo no_such_function_xyz >$N 2>/dev/null && fail "the bad truncating notrace write succeeded"
grep -q ':mod:rtt_no_such_module' $N ||
	fail "a failed truncating write dropped the cached notrace :mod: entry (notrace: $(cat $N | tr '\n' ' '))"
echo >$N || fail "clearing set_ftrace_notrace failed"
grep -q ':mod:' $N && fail "a good truncating write kept the notrace :mod: entry"
# A module that loads while a truncating file is open is added to the
# filter in force, from the cached entry; a failed write keeps that
# filter, a good one replaces it.
M=ftrace_rmmod_bench
for outcome in bad good; do
	echo "*:mod:$M" >$F || fail "caching '*:mod:$M' failed"
	exec 3>$F
	insmod /harness/modules/$M.ko || fail "insmod $M failed"
	if [ $outcome = bad ]; then
		echo no_such_function_xyz >&3 2>/dev/null && fail "the bad write through fd 3 succeeded"
		exec 3>&-
		grep -q "^ftrace_rmmod_bench_target" $F ||
			fail "after a failed write, the filter lacks $M, loaded while the file was open (filter: $(cat $F | tr '\n' ' '))"
		grep -q ':mod:' $F && fail "the consumed :mod:$M entry is still cached"
	else
		echo schedule >&3 || fail "the good write through fd 3 failed"
		exec 3>&-
		[ "$(cat $F)" = "$before" ] ||
			fail "a good truncating write did not replace the filter (filter: $(cat $F | tr '\n' ' '))"
	fi
	rmmod $M || fail "rmmod $M failed"
	echo schedule >$F || fail "restoring the filter failed"
done
# A module that loads while the file that cached its entry is open does
# not change the filter in force: the entry is part of that file's write,
# which its release installs (matching the module then) or drops.
for outcome in bad good; do
	exec 4>>$F
	echo "*:mod:$M" >&4 || fail "caching '*:mod:$M' through fd 4 failed"
	insmod /harness/modules/$M.ko || fail "insmod $M failed"
	grep -q "^ftrace_rmmod_bench_target" $F &&
		fail "$M, loaded while a file was open, joined the filter in force through that file's :mod: entry"
	if [ $outcome = bad ]; then
		echo no_such_function_xyz >&4 2>/dev/null && fail "the bad write through fd 4 succeeded"
		exec 4>&-
		[ "$(cat $F)" = "$before" ] ||
			fail "a failed write's :mod: entry brought $M into the filter (filter: $(cat $F | tr '\n' ' '))"
	else
		exec 4>&-
		grep -q "^ftrace_rmmod_bench_target" $F ||
			fail "after a good release, the filter lacks $M, loaded while the file that named it was open (filter: $(cat $F | tr '\n' ' '))"
		grep -q ':mod:' $F && fail "the :mod:$M entry matched at release is still cached"
	fi
	rmmod $M || fail "rmmod $M failed"
	echo schedule >$F || fail "restoring the filter failed"
done
# Such an entry goes at release even if it matches nothing in the module,
# as the load would have dropped it.
exec 4>>$F
echo "rtt_no_such_function:mod:$M" >&4 || fail "caching 'rtt_no_such_function:mod:$M' through fd 4 failed"
insmod /harness/modules/$M.ko || fail "insmod $M failed"
exec 4>&-
[ "$(cat $F)" = "$before" ] ||
	fail "a :mod:$M entry that matches nothing is still cached after $M loaded (filter: $(cat $F | tr '\n' ' '))"
rmmod $M || fail "rmmod $M failed"
# If the module has gone again by then, the entry waits for its next load,
# as if it had never loaded.
exec 4>>$F
echo "*:mod:$M" >&4 || fail "caching '*:mod:$M' through fd 4 failed"
insmod /harness/modules/$M.ko || fail "insmod $M failed"
rmmod $M || fail "rmmod $M failed"
exec 4>&-
grep -qx "\*:mod:$M" $F ||
	fail "the :mod:$M entry was dropped at release though $M had gone again (filter: $(cat $F | tr '\n' ' '))"
echo schedule >$F || fail "restoring the filter failed"
# A load counts only the entries in force for FL_MOD: once it consumed the
# last of them, an empty filter traces everything, whatever an open file
# has cached meanwhile.
echo "rtt_no_such_function:mod:$M" >$F || fail "caching 'rtt_no_such_function:mod:$M' failed"
exec 4>>$F
echo 'rtt_foo:mod:rtt_no_such_module' >&4 || fail "caching a :mod: entry through fd 4 failed"
insmod /harness/modules/$M.ko || fail "insmod $M failed"
echo no_such_function_xyz >&4 2>/dev/null && fail "the bad write through fd 4 succeeded"
exec 4>&-
[ "$(cat $F)" = "#### all functions enabled ####" ] ||
	fail "after $M consumed the last :mod: entry in force, the empty filter reads back as '$(cat $F | tr '\n' ' ')'"
rmmod $M || fail "rmmod $M failed"
echo schedule >$F || fail "restoring the filter failed"
# More than a page of cached entries reads back whole, each once, behind
# two functions (one hides an off-by-one in where the :mod: part starts):
# every read() walks the list from its head, counting from the right place.
echo 'schedule vfs_read' >$F || fail "setting a two-function filter failed"
# Each token costs a pass over every record: 150 long names (over four
# pages) instead of many short ones.
pad=rtt_padding_to_make_the_cached_entries_long_enough_to_fill_pages
seq 1 150 | sed "s/.*/${pad}_&:mod:rtt_no_such_module/" | sort >/tmp/mods
cat /tmp/mods >>$F || fail "caching 150 :mod: entries failed"
for bs in 131072 100 7; do
	dd if=$F bs=$bs 2>/dev/null >/tmp/filter.read
	grep ':mod:' /tmp/filter.read | sort >/tmp/mods.read
	cmp -s /tmp/mods /tmp/mods.read ||
		fail "set_ftrace_filter read $bs bytes at a time: $(grep -c '' /tmp/mods.read) :mod: lines, $(sort -u /tmp/mods.read | grep -c '') distinct, of 150 cached"
	[ "$(grep -v ':mod:' /tmp/filter.read | sort | tr '\n' ' ')" = "schedule vfs_read " ] ||
		fail "set_ftrace_filter read $bs bytes at a time: functions $(grep -v ':mod:' /tmp/filter.read | tr '\n' ' ')"
done
echo schedule >$F || fail "restoring the filter failed"
[ "$(cat $F)" = "$before" ] || fail "filter not restored after the 150 entries: $(grep -c '' $F) lines"
# A failed write caches nothing either: the :mod: entry written before
# the bad token goes with the rest of the write, or it would turn the
# kept filter into "that function only" once the module loads.
echo 'rtt_foo:mod:rtt_no_such_module no_such_function_xyz' >>$F 2>/dev/null &&
	fail "the write with a bad second token succeeded"
grep -q ':mod:' $F && fail "a failed write left the :mod: entry it cached (filter: $(cat $F | tr '\n' ' '))"
[ "$(cat $F)" = "$before" ] || fail "filter changed by a failed write with a :mod: token: $(cat $F | tr '\n' ' ')"
echo function >$T/instances/bad/current_tracer
sleep 0.2
echo nop >$T/instances/bad/current_tracer
# Removing the instance frees the :mod: entries still cached on it:
# kmemleak must not find what the mod command allocated.
kmemleak_forget
echo '*:mod:rtt_no_such_module' >>$F || fail "caching a :mod: entry failed"
echo 'rtt_f:mod:rtt_no_such_module' >>$N || fail "caching a notrace :mod: entry failed"
rmdir $T/instances/bad || fail "rmdir of the instance failed"
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	n=$(grep -c 'ftrace_mod_callback\|cache_mod\|ftrace_add_mod' /sys/kernel/debug/kmemleak)
	[ "$n" = 0 ] || fail "kmemleak: $n :mod: allocations leaked by the instance removal"
fi
# The stats file is read-only: every write is refused and changes nothing.
s0=$(grep -v '^#' $ST | awk '{print $1}')
for v in 0 reset -1 "$(head -c 100 /dev/urandom | tr -d '\0')"; do
	if echo "$v" >$ST 2>/dev/null; then fail "trace_stat/ftrace_tramp accepted a write"; fi
done
[ "$(grep -v '^#' $ST | awk '{print $1}')" = "$s0" ] || fail "stats rows changed"
echo "all bad input refused"
