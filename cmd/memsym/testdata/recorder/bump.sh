#!/bin/sh
# bump.sh B T: a program whose buffer "big" is 256·B·T + 5120 bytes, but
# for 1000 bytes more at T = 80: a polynomial on any grid that misses 80,
# contradicted by a recording there.
B=$1 T=$2
big=$((256 * B * T + 5120))
if [ "$T" -eq 80 ]; then big=$((big + 1000)); fi
echo "{\"memsym\": 1, \"entry\": \"X\", \"dims\": {\"B\": $B, \"T\": $T}}"
echo "{\"buffer\": 1, \"dtype\": \"f32\", \"shape\": [$B, $T], \"role\": \"input\"}"
echo "{\"buffer\": 2, \"dtype\": \"f32\", \"shape\": [$B, $T, $T], \"name\": \"scores\"}"
echo "{\"op\": \"attn\", \"reads\": [1], \"writes\": [2]}"
echo "{\"buffer\": 3, \"dtype\": \"f32\", \"shape\": [$B, $T], \"name\": \"a\"}"
echo "{\"op\": \"reduce\", \"reads\": [2], \"writes\": [3]}"
echo "{\"buffer\": 4, \"bytes\": $big, \"name\": \"big\"}"
echo "{\"op\": \"ff\", \"reads\": [3], \"writes\": [4]}"
echo "{\"buffer\": 5, \"dtype\": \"f32\", \"shape\": [$B, $T], \"name\": \"out\"}"
echo "{\"op\": \"proj\", \"reads\": [4], \"writes\": [5]}"
echo "{\"result\": [5]}"
