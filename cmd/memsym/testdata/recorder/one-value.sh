#!/bin/sh
# A recorder of two live sets, 2·B·T² + 200·B and 20·B·T + 151·B bytes:
# the second holds the peak at T = 5 alone, between crossovers at T = 5
# and T = 6 (at B = 1: 232, 231; 250, 251; 272, 271).
B=$1 T=$2
printf '{"memsym": 1, "entry": "F", "dims": {"B": %d, "T": %d}}\n' "$B" "$T"
printf '{"buffer": 1, "bytes": %d, "name": "P"}\n{"op": "a", "writes": [1]}\n' $((B * (2 * T * T + 200)))
printf '{"buffer": 2, "bytes": %d, "name": "Q"}\n{"op": "b", "writes": [2]}\n{"result": []}\n' $((B * (20 * T + 151)))
