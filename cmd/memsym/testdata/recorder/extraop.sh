#!/bin/sh
# extraop.sh B T: a program whose peak moves from "shrink" (4004·B·T bytes)
# to "square" (4·B·T² + 4·B·T) at T = 1001, and which runs one operation
# more, after both, from T = 1000 on: a grid below 1000 cannot show it, and
# the peaks on both sides of the crossover are where the model says.
B=$1 T=$2
echo "{\"memsym\": 1, \"entry\": \"X\", \"dims\": {\"B\": $B, \"T\": $T}}"
echo "{\"buffer\": 1, \"dtype\": \"f32\", \"shape\": [$B, $T], \"role\": \"input\"}"
echo "{\"buffer\": 2, \"dtype\": \"f32\", \"shape\": [$B, $T, 1000], \"name\": \"wide\"}"
echo "{\"op\": \"wide\", \"reads\": [1], \"writes\": [2]}"
echo "{\"buffer\": 3, \"dtype\": \"f32\", \"shape\": [$B, $T], \"name\": \"narrow\"}"
echo "{\"op\": \"shrink\", \"reads\": [2], \"writes\": [3]}"
echo "{\"buffer\": 4, \"dtype\": \"f32\", \"shape\": [$B, $T, $T], \"name\": \"sq\"}"
echo "{\"op\": \"square\", \"reads\": [3], \"writes\": [4]}"
if [ "$T" -ge 1000 ]; then echo "{\"op\": \"touch\", \"reads\": [4], \"writes\": [4]}"; fi
echo "{\"buffer\": 5, \"dtype\": \"f32\", \"shape\": [$B, $T], \"name\": \"out\"}"
echo "{\"op\": \"out\", \"reads\": [4], \"writes\": [5]}"
echo "{\"result\": [5]}"
