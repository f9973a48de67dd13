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
esac
exec cat "$dir/b$B-t$T.jsonl"
