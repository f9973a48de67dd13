#!/bin/sh
# A recorder for memsym's tests: `fake-recorder.sh DIR B T` writes the
# recording DIR/b{B}-t{T}.jsonl to its standard output, as an executor
# would. Some values of B make it misbehave the way real recorders do:
#
#   901  fails: exits 3 after a message on its standard error
#   902  writes nothing and exits 0
#   903  writes something that is not a recording and exits 0
#   904  writes the first 5 lines of its recording and exits 0
#   905  hangs (until it is killed)
#   906  writes 3000 lines to its standard error, then fails
#   907  writes the recording made at B = 48 instead of its own
#   908  succeeds, writing a warning to its standard error (two lines, one
#        coloured by a terminal's escapes), later at T = 256 than at the
#        other values of T
#   909  succeeds, writing 3000 lines to its standard error
#
# It misbehaves only on the grid's T (at most 768), so that memsym's
# default check points, further out, are recorded as usual.
set -u
dir=$1 B=$2 T=$3
[ "$T" -le 768 ] || exec cat "$dir/b$B-t$T.jsonl"
case $B in
901) echo "fake-recorder: cannot build the model at B=$B, T=$T" >&2; exit 3 ;;
902) exit 0 ;;
903) echo 'Segmentation fault (core dumped)'; echo '<html>not a recording</html>'; exit 0 ;;
904) head -n 5 "$dir/b$B-t$T.jsonl"; exit 0 ;;
905) exec sleep 30 ;;
906)
	i=0
	while [ $i -lt 3000 ]; do
		echo "fake-recorder: warning $i: a line of noise on the standard error" >&2
		i=$((i + 1))
	done
	echo "fake-recorder: out of memory at B=$B, T=$T" >&2
	exit 1
	;;
907) exec cat "$dir/b48-t$T.jsonl" ;;
908)
	[ "$T" != 256 ] || sleep 1
	echo "fake-recorder: loading the model" >&2
	printf '\033[33mwarning\033[0m: no fused kernel at B=%s, T=%s, falling back to float32\n' "$B" "$T" >&2
	;;
909)
	i=0
	while [ $i -lt 3000 ]; do
		echo "fake-recorder: debug $i: a line of noise on the standard error" >&2
		i=$((i + 1))
	done
	;;
esac
exec cat "$dir/b$B-t$T.jsonl"
