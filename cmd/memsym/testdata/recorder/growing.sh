#!/bin/sh
# growing.sh B L: a recording of L linear layers whose layer t writes
# 32·B·(t + 1) bytes, so that the blocks' bytes grow from block to block;
# the layers' outputs are read by the next layer only.
B=$1 L=$2
echo "{\"memsym\": 1, \"entry\": \"Net.apply\", \"dims\": {\"B\": $B, \"L\": $L}}"
echo "{\"buffer\": 1, \"dtype\": \"f32\", \"shape\": [$B, 8], \"role\": \"input\", \"name\": \"x\"}"
prev=1 id=10 t=0
while [ $t -lt $L ]; do
	echo "{\"buffer\": $id, \"dtype\": \"f32\", \"shape\": [8, 8], \"role\": \"param\", \"name\": \"w\", \"group\": \"layers[$t]\"}"
	h=$((id + 1))
	echo "{\"buffer\": $h, \"bytes\": $((32 * B * (t + 1))), \"name\": \"h\"}"
	echo "{\"op\": \"Linear.apply\", \"path\": \"layers[$t]\", \"reads\": [$prev, $id], \"writes\": [$h]}"
	prev=$h id=$((id + 2)) t=$((t + 1))
done
echo "{\"buffer\": 5, \"dtype\": \"f32\", \"shape\": [$B], \"name\": \"out\"}"
echo "{\"op\": \"Net.head\", \"reads\": [$prev], \"writes\": [5]}"
echo "{\"result\": [5]}"
