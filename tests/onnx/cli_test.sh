#!/usr/bin/env bash
# Tests of `symshape infer` and `symshape show` on the example models.
#
#   cli_test.sh SYMSHAPE DUMP_TYPES MODELS_DIR CASE
#
# SYMSHAPE is the command, DUMP_TYPES the onnx_dump_types helper (runs ONNX's
# checker on a file and prints its types), MODELS_DIR examples/models, CASE
# one of the functions below (registered one per ctest test in CMakeLists.txt).
set -u

exe=$1 dump=$2 models=$3 case=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "FAIL ($case): $*" >&2
  for f in out err; do
    [[ -f $tmp/$f ]] && { echo "--- std$f:" >&2; cat "$tmp/$f" >&2; }
  done
  exit 1
}

# run EXPECTED_EXIT ARGS...: runs the command, output in $tmp/out and $tmp/err.
run() {
  local want=$1
  shift
  echo "running: symshape $*"
  "$exe" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local got=$?
  [[ $got == "$want" ]] || fail "exit code $got, expected $want"
}
has() { grep -Eq -- "$1" "$tmp/out" || fail "stdout has no line matching: $1"; }
has_not() { ! grep -Eq -- "$1" "$tmp/out" || fail "stdout has a line matching: $1"; }
stdout_empty() { [[ ! -s $tmp/out ]] || fail "stdout is not empty"; }
stderr_empty() { [[ ! -s $tmp/err ]] || fail "stderr is not empty"; }
# One line on stderr, starting with "symshape", matching RE.
one_error() {
  [[ $(wc -l <"$tmp/err") == 1 ]] || fail "stderr is not exactly one line"
  grep -Eq -- "^symshape .*$1" "$tmp/err" || fail "stderr does not match: ^symshape .*$1"
}
# The checker accepts FILE; its types go to $tmp/types.
checked() {
  "$dump" "$1" >"$tmp/types" 2>"$tmp/dump_err" || { cat "$tmp/dump_err" >&2; fail "checker rejects $1"; }
}
type_is() {
  grep -Fxq -- "$1" "$tmp/types" || { cat "$tmp/types" >&2; fail "no type line: $1"; }
}

case_infer_transformer() {
  run 0 infer "$models/transformer_block.onnx" -o "$tmp/t.onnx"
  stderr_empty
  has "^$models/transformer_block.onnx: 36 nodes, 36 values, 36 with known shape, 0 errors, 0 warnings$"
  has '^  output y: float\[batch,seq,32\]$'
  has '^  output attn: float\[batch,4,seq,seq\]$'
  has "^wrote $tmp/t.onnx$"
  [[ ! -e $tmp/t.onnx.tmp ]] || fail "temp file left"
  checked "$tmp/t.onnx"
  type_is 'input x: 1[batch,seq,32]'
  type_is 'value x_shape: 7[3]'
  type_is 'value split_heads_shape: 7[4]'
  type_is 'value q_heads: 1[batch,seq,4,8]'
  type_is 'value k_t: 1[batch,4,8,seq]'
  type_is 'value context_merged: 1[batch,seq,32]'
  type_is 'value ff1_act: 1[batch,seq,128]'
  type_is 'output y: 1[batch,seq,32]'
  type_is 'output attn: 1[batch,4,seq,seq]'
  [[ $(grep -c '^value ' "$tmp/types") == 34 ]] || fail "expected 34 value_info entries"
  # Inferring the written model again gives the same file.
  run 0 infer "$tmp/t.onnx" -o "$tmp/t2.onnx"
  cmp -s "$tmp/t.onnx" "$tmp/t2.onnx" || fail "re-inference changed the model"
}

case_infer_cnn() {
  run 0 infer "$models/small_cnn.onnx" -o "$tmp/c.onnx"
  has '^  output logits: float\[N,10\]$'
  checked "$tmp/c.onnx"
  type_is 'value c1: 1[N,8,(H+1)//2,(W+1)//2]'
  type_is 'value p1: 1[N,8,(H+1)//4,(W+1)//4]'
  type_is 'value gap: 1[N,16,1,1]'
  type_is 'value flat: 1[N,16]'
  type_is 'output logits: 1[N,10]'
}

case_infer_control_flow() {
  run 0 infer "$models/control_flow.onnx" -o "$tmp/f.onnx"
  checked "$tmp/f.onnx"
  type_is 'value a2: 1[batch,16]'
  type_is 'value branch: 1[batch,16]'
  type_is 'output out: 1[batch,16]'
}

case_infer_input_shape() {
  run 0 infer "$models/transformer_block.onnx" --input-shape x=2,seq,32 -o "$tmp/t.onnx"
  has '^  input  x: float\[2,seq,32\]$'
  has '^  output attn: float\[2,4,seq,seq\]$'
  checked "$tmp/t.onnx"
  type_is 'input x: 1[2,seq,32]'
  type_is 'value q_heads: 1[2,seq,4,8]'
  # Expressions: an even image size 2*S gives S after the stride-2 conv.
  run 0 infer "$models/small_cnn.onnx" --input-shape "image=N, 3, 2*S, 2*S + 2" -o "$tmp/c.onnx"
  checked "$tmp/c.onnx"
  type_is 'input image: 1[N,3,2*S,2*S+2]'
  type_is 'value c1: 1[N,8,S,S+1]'
  type_is 'value p1: 1[N,8,S//2,(S+1)//2]'
  # On an annotated model, the old types derived from the old input shape are
  # replaced, under every policy.
  run 0 infer "$models/transformer_block.onnx" -o "$tmp/t.onnx"
  for p in refine strict skip; do
    run 0 infer "$tmp/t.onnx" --input-shape x=B,S,32 --policy $p -o "$tmp/t2.onnx"
    has '^  output attn: float\[B,4,S,S\]$'
    checked "$tmp/t2.onnx"
    type_is 'value q_heads: 1[B,S,4,8]'
  done
}

case_infer_trace() {
  run 0 infer "$models/transformer_block.onnx" --trace
  [[ $(grep -Ec '^[A-Za-z]+ +.* -> ' "$tmp/out") == 36 ]] || fail "expected 36 trace lines"
  has '^Reshape +\[batch,seq,32\], \[4\] -> \[batch,seq,4,8\]  \(q_split_heads\)$'
  has '^Softmax +\[batch,4,seq,seq\] -> \[batch,4,seq,seq\]  \(softmax\)$'
}

case_infer_json() {
  run 0 infer "$models/small_cnn.onnx" --json "$tmp/r.json"
  [[ -f $tmp/r.json && ! -e $tmp/r.json.tmp ]] || fail "no report"
  grep -Fq '"model": "'"$models/small_cnn.onnx"'"' "$tmp/r.json" || fail "no model"
  grep -Fq '"modified": true' "$tmp/r.json" || fail "no modified"
  grep -Fq '"diagnostics": []' "$tmp/r.json" || fail "diagnostics not empty"
  grep -Fq '{"name": "c1", "type": "float[N,8,(H+1)//2,(W+1)//2]", "node": "conv1", "op_type": "Conv"' "$tmp/r.json" ||
    fail "no c1 entry"
  run 3 infer "$models/shape_bug.onnx" --json "$tmp/bug.json"
  grep -Fq '{"severity": "error", "kind": "semantic", "node": "proj_out", "op_type": "MatMul", "message": ' "$tmp/bug.json" ||
    fail "no diagnostic in the report"
}

case_infer_shape_bug() {
  run 3 infer "$models/shape_bug.onnx" -o "$tmp/b.onnx"
  stderr_empty
  has '1 errors'
  has "^error: node 'proj_out' \(MatMul\): .*48.*64"
  checked "$tmp/b.onnx"  # written in full, still a valid model
  type_is 'value h: 1[batch,seq,48]'
}

case_infer_policies() {
  for p in skip override refine strict; do
    run 0 infer "$models/transformer_block.onnx" --policy "$p"
    has '0 errors'
  done
  run 2 infer "$models/transformer_block.onnx" --policy sometimes
  one_error "bad --policy 'sometimes'"
  stdout_empty
}

case_show() {
  run 0 show "$models/transformer_block.onnx"
  stderr_empty
  has '^value +node +op +dtype +shape$'
  has '^x +\(input\) +- +float +\[batch,seq,32\]$'
  has '^scores_raw +scores +MatMul +float +\[batch,4,seq,seq\]$'
  has '^q_heads +q_split_heads +Reshape +float +\[batch,seq,4,8\]$'
  has_not '^wq '  # initializers only with --all
  [[ $(wc -l <"$tmp/out") == 38 ]] || fail "expected 38 lines (header, input, 36 values)"
  # Columns are aligned: every row starts its op column at the same offset.
  local col
  col=$(awk 'NR==1 {print index($0, "op ")}' "$tmp/out")
  awk -v c="$col" 'NR>1 && substr($0, c-2, 2) != "  " {exit 1}' "$tmp/out" || fail "columns not aligned"
  run 0 show "$models/transformer_block.onnx" --all
  has '^wq +\(initializer\) +- +float +\[32,32\]$'
}

case_show_bind() {
  run 0 show "$models/small_cnn.onnx" --bind N=1,H=224,W=224
  has '^value +node +op +dtype +shape +concrete +bytes$'
  has '^image +\(input\) +- +float +\[N,3,H,W\] +\[1,3,224,224\] +602112$'
  has '^c1 +conv1 +Conv +float +\[N,8,\(H\+1\)//2,\(W\+1\)//2\] +\[1,8,112,112\] +401408$'
  has '^logits +fc +Gemm +float +\[N,10\] +\[1,10\] +40$'
  has '^total bytes of node outputs: 1304744$'
  # Unbound symbols: '?' in the concrete shape and the size.
  run 0 show "$models/small_cnn.onnx" --bind N=2
  has '^c1 +conv1 +Conv +float +\[N,8,\(H\+1\)//2,\(W\+1\)//2\] +\[2,8,\?,\?\] +\?$'
  has '^gap +gap +GlobalAveragePool +float +\[N,16,1,1\] +\[2,16,1,1\] +128$'
  has '^total bytes of node outputs: \?$'
  run 2 show "$models/small_cnn.onnx" --bind N
  one_error "bad binding 'N'"
}

case_bad_files() {
  echo "this is not an onnx model, not even protobuf" >"$tmp/junk.onnx"
  head -c 20000 "$models/transformer_block.onnx" >"$tmp/cut.onnx"
  for cmd in infer show; do
    run 1 $cmd "$tmp/missing.onnx"
    one_error "file $tmp/missing.onnx: cannot open for reading$"
    stdout_empty
    run 1 $cmd "$tmp/junk.onnx"
    one_error "file $tmp/junk.onnx: not a valid ONNX model"
    stdout_empty
    run 1 $cmd "$tmp"
    one_error "file $tmp: is a directory"
    run 1 $cmd "$tmp/cut.onnx"
    one_error "file $tmp/cut.onnx: not a valid ONNX model \(protobuf parse failed\)$"
  done
  # Nothing written, and an existing output is left alone.
  echo keep >"$tmp/out.onnx"
  run 1 infer "$tmp/cut.onnx" -o "$tmp/out.onnx" --json "$tmp/r.json"
  [[ $(cat "$tmp/out.onnx") == keep ]] || fail "output overwritten"
  [[ ! -e $tmp/r.json && ! -e $tmp/out.onnx.tmp && ! -e $tmp/r.json.tmp ]] || fail "something was written"
  # Unwritable output: one line, nothing left behind.
  run 1 infer "$models/small_cnn.onnx" -o "$tmp/no/such/dir/out.onnx" --json "$tmp/r.json"
  one_error "file $tmp/no/such/dir/out.onnx: cannot write"
  [[ ! -e $tmp/r.json && ! -e $tmp/r.json.tmp ]] || fail "report written although the model was not"
}

case_usage_errors() {
  run 2 infer
  one_error "expected a model file"
  run 2 show
  one_error "expected a model file"
  run 2 infer "$models/small_cnn.onnx" --input-shape nope=1,2
  one_error "'nope' is not an input of"
  run 2 infer "$models/small_cnn.onnx" --input-shape image=1,3,H+,W
  one_error "bad dim 'H\+'.*position"
  run 2 infer "$models/small_cnn.onnx" --input-shape image
  one_error "bad --input-shape 'image'"
  run 2 infer "$models/small_cnn.onnx" --frobnicate
  one_error "unknown option '--frobnicate'"
  run 2 infer "$models/small_cnn.onnx" -o
  one_error "-o needs"
  run 2 infer "$models/small_cnn.onnx" "$models/small_cnn.onnx"
  one_error "unexpected argument"
}

"case_$case"
echo "PASS ($case)"
