#!/bin/bash
# Build cost of symshape for its users: compile time and peak compiler memory
# of typical translation units, and the stripped size of the programs, printed
# as the markdown table of docs/benchmarks.md ("Build cost").
#
#   bench/build_cost.sh [-r REPEAT] [-O "-O2 -Os"] [-c CXX] [-f] [-b BASE]
#
# Each translation unit is compiled REPEAT times (default 3) per optimisation
# level; the table shows the minimum of each measure (wall time, CPU time =
# user + sys, peak resident memory of the compiler, from /usr/bin/time): on a
# shared machine the minimum is the run least disturbed by other jobs. Linking
# is not timed. Nothing here runs in CI: it only measures.
#
# -f adds a table of machine code per header: the infer_header_only unit is
# compiled once more at the first level with -g1 and the size of each emitted
# function (nm -S -l) is added to the header that defines it; code size is
# what the optimiser and code generator spend their time on, so the table
# says which op families cost most (for choosing families).
#
# -b BASE compares with another checkout (its root folder, for example one
# made by `git worktree add /tmp/base REV`): each unit is compiled from BASE
# and from this checkout alternately, REPEAT times each, so that both see the
# same drift of the machine's speed, and the table gives both minima and
# their ratio, and the size of each unit's object code (`size`'s text), which
# does not vary from run to run.
#
# The translation units (generated in a temporary directory):
#   include_header_only  #include "symshape/symshape.hpp" (header-only mode: the
#                        core and every rule header), nothing called
#   include_compiled     the same header in the precompiled mode
#                        (SYMSHAPE_COMPILED): the whole core API without the
#                        rule headers; "everything" a user of that mode sees
#   infer_header_only    a user program that builds a model and calls
#                        infer_shapes, header-only: compiles every built-in rule
#   compiled_library     src/symshape.cpp, the library of the precompiled mode
#                        (built once, CMake target symshape::compiled)
#   infer_compiled       the same user program in the precompiled mode
#   call_api             the same unit including only symshape/api.hpp (the entry
#                        point without the IR; precompiled mode)
#   call_compiled        a user TU that only calls infer_shapes on a model it is
#                        given and reads the report (precompiled mode)
#   selected_families    examples/selected_families: three op families (conv,
#                        unary, reshape) merged with merge_rules, header-only
set -euo pipefail

repeat=3
levels="-O2 -Os"
cxx=${CXX:-g++}
per_header=0
base_root=""
while getopts "r:O:c:fb:" opt; do
  case $opt in
    r) repeat=$OPTARG ;;
    O) levels=$OPTARG ;;
    c) cxx=$OPTARG ;;
    f) per_header=1 ;;
    b) base_root=$(cd "$OPTARG" && pwd) ;;
    *) echo "usage: $0 [-r REPEAT] [-O \"-O2 -Os\"] [-c CXX] [-f] [-b BASE]" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/symshape_build_cost.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat > "$work/include_only.cpp" <<'EOF'
#include "symshape/symshape.hpp"
int main() { return 0; }
EOF
# The user program of infer_header_only and infer_compiled.
cat > "$work/infer_user.cpp" <<'EOF'
#include <cstdio>
#include "symshape/symshape.hpp"
int main() {
  using namespace symshape;
  Model model;
  model.opset_imports[""] = 17;
  GraphBuilder b(*model.graph);
  b.input("x", Type::tensor(DataType::FLOAT, Shape({"batch", 4})));
  b.node("Transpose", {"x"}, {"t"}, {Attribute::make_ints("perm", {1, 0})});
  b.node("Relu", {"t"}, {"y"});
  b.output("y");
  const Report report = infer_shapes(model);
  std::printf("%s\n", model.graph->find("y")->type.to_string().c_str());
  return report.ok() ? 0 : 1;
}
EOF
cat > "$work/call_compiled.cpp" <<'EOF'
#include "symshape/symshape.hpp"
int errors_in(symshape::Model& model) { return static_cast<int>(symshape::infer_shapes(model).errors()); }
EOF
sed 's|symshape/symshape.hpp|symshape/api.hpp|' "$work/call_compiled.cpp" > "$work/call_api.cpp"

units=(include_header_only include_compiled infer_header_only compiled_library infer_compiled call_compiled call_api
  selected_families)
# each_unit FN OPT: calls FN NAME OPT SOURCE [flags...] for each unit of $units, in
# that order (an @ in SOURCE stands for the root of the checkout compiled).
each_unit() {
  local fn=$1 opt=$2
  "$fn" include_header_only "$opt" "$work/include_only.cpp"
  "$fn" include_compiled "$opt" "$work/include_only.cpp" -DSYMSHAPE_COMPILED
  "$fn" infer_header_only "$opt" "$work/infer_user.cpp"
  "$fn" compiled_library "$opt" "@/src/symshape.cpp" -DSYMSHAPE_COMPILED
  "$fn" infer_compiled "$opt" "$work/infer_user.cpp" -DSYMSHAPE_COMPILED
  "$fn" call_compiled "$opt" "$work/call_compiled.cpp" -DSYMSHAPE_COMPILED
  "$fn" call_api "$opt" "$work/call_api.cpp" -DSYMSHAPE_COMPILED
  "$fn" selected_families "$opt" "@/examples/selected_families/selected_families.cpp"
}

base=(-std=c++17 -I"$root/include")
# measure NAME OPT SOURCE [flags...]: compiles SOURCE to NAME.o REPEAT times and
# records "wall cpu peak_kb" minima in $work/NAME$OPT.m.
measure() {
  local name=$1 opt=$2 src=${3//@/$root}
  shift 3
  local best_wall="" best_cpu="" best_mem=""
  for ((i = 0; i < repeat; ++i)); do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$cxx" "${base[@]}" "$opt" "$@" -c "$src" -o "$work/$name$opt.o"
    read -r wall user sys mem < "$work/time"
    cpu=$(echo "$user + $sys" | bc)
    if [ -z "$best_wall" ] || (($(echo "$wall < $best_wall" | bc))); then best_wall=$wall; fi
    if [ -z "$best_cpu" ] || (($(echo "$cpu < $best_cpu" | bc))); then best_cpu=$cpu; fi
    if [ -z "$best_mem" ] || ((mem < best_mem)); then best_mem=$mem; fi
  done
  echo "$best_wall $best_cpu $best_mem" > "$work/$name$opt.m"
  echo "  $name $opt: ${best_wall} s wall, ${best_cpu} s CPU, $((best_mem / 1024)) MB" >&2
}
# The comparison with BASE (-b), then nothing else.
if [ -n "$base_root" ]; then
  declare -A best_cpu best_mem text
  # compile_at TAG TREE NAME OPT SOURCE [flags...]: one compilation of SOURCE
  # (an @ in it stands for TREE) against TREE's headers; keeps the minima of
  # CPU time and peak memory under NAME OPT TAG, and the object's text size.
  # shellcheck disable=SC2317  # (called through each_unit and pair)
  compile_at() {
    local tag=$1 tree=$2 name=$3 opt=$4 src=${5//@/$2}
    shift 5
    local key="$name $opt $tag" obj="$work/$name$opt.$tag.o"
    /usr/bin/time -f "%U %S %M" -o "$work/time" "$cxx" -std=c++17 -I"$tree/include" "$opt" "$@" -c "$src" -o "$obj"
    read -r user sys mem < "$work/time"
    cpu=$(printf '%.2f' "$(echo "$user + $sys" | bc)")
    if [ -z "${best_cpu[$key]:-}" ] || (($(echo "$cpu < ${best_cpu[$key]}" | bc))); then best_cpu[$key]=$cpu; fi
    if [ -z "${best_mem[$key]:-}" ] || ((mem < best_mem[$key])); then best_mem[$key]=$mem; fi
    text[$key]=$(size "$obj" | awk 'NR == 2 { print $1 }')
  }
  # pair NAME OPT SOURCE [flags...]: REPEAT compilations from each tree, alternating.
  # shellcheck disable=SC2317  # (called through each_unit)
  pair() {
    for ((i = 0; i < repeat; ++i)); do
      compile_at base "$base_root" "$@"
      compile_at head "$root" "$@"
    done
    local b="$1 $2 base" h="$1 $2 head"
    echo "  $1 $2: ${best_cpu[$b]} s CPU from BASE, ${best_cpu[$h]} s here" >&2
  }
  for opt in $levels; do
    echo "compiling at $opt, $repeat times each from $base_root and from $root, alternately" >&2
    each_unit pair "$opt"
    echo
    echo "$opt, BASE = $base_root, here = $root:"
    echo
    echo "| translation unit | BASE CPU s | CPU s | ratio | BASE peak MB | peak MB | BASE text KB | text KB |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|"
    for name in "${units[@]}"; do
      b="$name $opt base" h="$name $opt head"
      ratio=$(echo "scale=4; ${best_cpu[$h]} / ${best_cpu[$b]}" | bc)
      echo "| $name | ${best_cpu[$b]} | ${best_cpu[$h]} | $(printf '%.3f' "$ratio") | $((best_mem[$b] / 1024)) | $((best_mem[$h] / 1024)) |" \
        "$((text[$b] / 1024)) | $((text[$h] / 1024)) |"
    done
  done
  echo
  echo "$("$cxx" --version | head -1); $repeat runs each, minimum shown; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
  exit 0
fi

# program NAME OPT OBJECTS...: links and strips, records the size in bytes.
program() {
  local name=$1 opt=$2
  shift 2
  "$cxx" "$@" -o "$work/$name$opt"
  strip -o "$work/$name$opt.stripped" "$work/$name$opt"
  stat -c %s "$work/$name$opt.stripped" > "$work/$name$opt.size"
}

for opt in $levels; do
  echo "compiling at $opt, $repeat times each" >&2
  each_unit measure "$opt"
  program infer_header_only "$opt" "$work/infer_header_only$opt.o"
  program infer_compiled "$opt" "$work/infer_compiled$opt.o" "$work/compiled_library$opt.o"
  program selected_families "$opt" "$work/selected_families$opt.o"
done

# The table: one row per translation unit, a column group per level.
header="| translation unit |"
rule="|---|"
for opt in $levels; do
  header+=" $opt wall s | $opt CPU s | $opt peak MB |"
  rule+="---:|---:|---:|"
done
echo "$header"
echo "$rule"
for name in "${units[@]}"; do
  row="| $name |"
  for opt in $levels; do
    read -r wall cpu mem < "$work/$name$opt.m"
    row+=" $wall | $cpu | $((mem / 1024)) |"
  done
  echo "$row"
done
echo
header="| program (stripped) |"
rule="|---|"
for opt in $levels; do
  header+=" $opt KB |"
  rule+="---:|"
done
echo "$header"
echo "$rule"
for name in infer_header_only infer_compiled selected_families; do
  row="| $name |"
  for opt in $levels; do row+=" $(($(cat "$work/$name$opt.size") / 1024)) |"; done
  echo "$row"
done
echo
if ((per_header)); then
  first=${levels%% *}
  "$cxx" "${base[@]}" "$first" -g1 -c "$work/infer_user.cpp" -o "$work/per_header.o"
  nm -S -l "$work/per_header.o" | /usr/bin/python3 -c '
import collections, re, sys
size = collections.Counter()
for line in sys.stdin:
    f = line.split()
    if len(f) < 5 or f[2] not in "TtWw":
        continue
    where = re.sub(r":\d+$", "", f[-1])
    where = re.sub(r".*/include/symshape/", "", where)
    where = re.sub(r".*/include/c\+\+/[0-9]+/", "(std) ", where)
    size[where] += int(f[1], 16)
total = sum(size.values())
print("| header (code of infer_header_only, '"$first"') | KB | share |")
print("|---|---:|---:|")
for where, n in size.most_common(25):
    print("| %s | %.1f | %.1f%% |" % (where, n / 1024, 100 * n / total))
print("| (total, %d headers) | %.1f | 100%% |" % (len(size), total / 1024))
'
  echo
fi
echo "$("$cxx" --version | head -1); $repeat runs each, minimum shown; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
