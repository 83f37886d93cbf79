#!/usr/bin/env bash
# Tests of `symshape infer` and `symshape show` on the example models.
#
#   cli_test.sh SYMSHAPE DUMP_TYPES MODELS_DIR CASE [PYTHON]
#
# SYMSHAPE is the command, DUMP_TYPES the onnx_dump_types helper (runs ONNX's
# checker on a file and prints its types), MODELS_DIR examples/models, CASE
# one of the functions below (registered one per ctest test in CMakeLists.txt),
# PYTHON a python3 with the onnx module, for the cases that make their models
# with make_cli_models.py (external data, upstream errors, anonymous dims).
set -u

exe=$1 dump=$2 models=$3 case=$4 python=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
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
# run_stdin FILE EXPECTED_EXIT ARGS...: the same with FILE on standard input.
run_stdin() {
  local in=$1 want=$2
  shift 2
  echo "running: symshape $* < $in"
  "$exe" "$@" >"$tmp/out" 2>"$tmp/err" <"$in"
  local got=$?
  [[ $got == "$want" ]] || fail "exit code $got, expected $want"
}
err_has() { grep -Eq -- "$1" "$tmp/err" || fail "stderr has no line matching: $1"; }
# Every stderr line starts with "symshape CMD: " and there are N of them.
err_lines() {
  [[ $(wc -l <"$tmp/err") == "$1" ]] || fail "stderr has $(wc -l <"$tmp/err") lines, expected $1"
  ! grep -Evq '^symshape [a-z]+: ' "$tmp/err" || fail "a stderr line does not start with 'symshape CMD: '"
}
sum() { sha256sum "$1" | cut -d' ' -f1; }
# No temporary file left beside an output in DIR.
no_temp_files() { ! ls -A "$1" | grep -q 'symshape-' || fail "temporary file left in $1: $(ls -A "$1")"; }
# The models of make_cli_models.py, in $tmp/gen.
gen_models() {
  [[ -n $python ]] || fail "no python with onnx given"
  mkdir -p "$tmp/gen" && "$python" "$here/make_cli_models.py" "$tmp/gen" || fail "make_cli_models.py failed"
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
  grep -Fq '{"name": "c1", "type": "float[N,8,(H+1)//2,(W+1)//2]", "dtype": "float", "dims": ["N", 8, "(H+1)//2", "(W+1)//2"], "node": "conv1", "op_type": "Conv"' "$tmp/r.json" ||
    fail "no c1 entry"
  run 3 infer "$models/shape_bug.onnx" --json "$tmp/bug.json"
  grep -Fq '{"severity": "error", "kind": "semantic", "node": "proj_out", "op_type": "MatMul", "where": "node #2 '"'proj_out'"' (MatMul)", "message": ' "$tmp/bug.json" ||
    fail "no diagnostic in the report"
}

# Inference errors: the summary on stdout, each diagnostic on stderr naming the
# file and the node (#index, name, op type), exit 3, and -o not written.
case_infer_shape_bug() {
  run 3 infer "$models/shape_bug.onnx" -o "$tmp/b.onnx"
  has "^$models/shape_bug.onnx: 3 nodes, 3 values, 3 with known shape, 1 error, 0 warnings$"
  has_not "^error|^symshape|proj_out"
  has_not '^wrote'
  err_lines 2
  err_has "^symshape infer: $models/shape_bug.onnx: error: node #2 'proj_out' \(MatMul\): incompatible inner dimensions: .*48.*64"
  err_has "^symshape infer: $models/shape_bug.onnx: note: $tmp/b.onnx not written because inference reported errors"
  [[ ! -e $tmp/b.onnx ]] || fail "-o written although inference reported errors"
  no_temp_files "$tmp"
  # show: the table on stdout, the same diagnostic on stderr, exit 3.
  run 3 show "$models/shape_bug.onnx"
  has '^y +proj_out +MatMul +float +\[_d0,_d1,_d2\]$'
  has_not '^error|^symshape'
  err_lines 1
  err_has "^symshape show: $models/shape_bug.onnx: error: node #2 'proj_out' \(MatMul\): "
}

# --allow-errors writes the partial result; the exit code stays 3.
case_allow_errors() {
  run 3 infer "$models/shape_bug.onnx" -o "$tmp/b.onnx" --allow-errors
  has "^wrote $tmp/b.onnx$"
  err_lines 1
  checked "$tmp/b.onnx"  # written in full, still a valid model
  type_is 'value h: 1[batch,seq,48]'
  type_is 'output y: 1[_d0,_d1,_d2]'
  has '^  output y: float\[_d0,_d1,_d2\]$'  # the summary says what the file holds
  no_temp_files "$tmp"
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

# Long shapes (an input reshaped by --input-shape, written by -o): show and
# infer's summary cut them to 60 columns when stdout is not a terminal, ending
# in '…'; --full prints them whole, --json always holds them whole.
long_dim='prompt_tokens+image_patches*patch_area+audio_frames//hop_length+retrieved_passages*passage_tokens'
long_canon='prompt_tokens\+image_patches\*patch_area\+passage_tokens\*retrieved_passages\+audio_frames//hop_length'
case_show_cut() {
  run 0 infer "$models/transformer_block.onnx" --input-shape "x=batch,$long_dim,32" -o "$tmp/long.onnx" \
    --json "$tmp/long.json"
  has '^  input  x: float\[batch,prompt_tokens\+image_patches\*patch_area\+…$'
  grep -Eq "\"type\": \"float\[batch,$long_canon,32\]\"" "$tmp/long.json" || fail "the report's type is not whole"
  ! grep -q '…' "$tmp/long.json" || fail "the report has a cut expression"
  run 0 infer "$models/transformer_block.onnx" --input-shape "x=batch,$long_dim,32" --full
  has "^  input  x: float\[batch,$long_canon,32\]$"
  run 0 show "$tmp/long.onnx"
  stderr_empty
  has '^x +\(input\) +- +float +\[batch,prompt_tokens\+image_patches\*patch_area\+…$'
  has '^x_shape +shape +Shape +int64 +\[3\]$'
  # The shape column is padded to its cut width (60), not to the whole shape.
  [[ $(LC_ALL=C.UTF-8 wc -L <"$tmp/out") -le $((19 + 19 + 20 + 7 + 60)) ]] || fail "a line is wider than the cut table"
  run 0 show "$tmp/long.onnx" --full
  has "^x +\(input\) +- +float +\[batch,$long_canon,32\]$"
  ! grep -q '…' "$tmp/out" || fail "--full cut an expression"
}

# On a terminal (a pseudo-terminal of script(1) set to 120 columns), the
# width is what the terminal leaves (at least 20): every line of the totals fits.
case_terminal_width() {
  command -v script >/dev/null || { echo "no script(1): skipped"; return 0; }
  script -qc "stty cols 120; '$exe' profile '$models/gpt2_like.onnx' --bind batch=1,seq=128,past=0" /dev/null \
    </dev/null | tr -d '\r' >"$tmp/out"
  has '^peak_activation_bytes +704532 +688 KiB +max of 16 candidates, largest at bindings: .*…$'
  has "^peak at node #148 '/blocks.1/Div' \(Div\)$"
  [[ $(head -n 9 "$tmp/out" | LC_ALL=C.UTF-8 wc -L) -le 120 ]] || fail "a line of the totals is wider than the terminal"
  # Wider than the 60 columns of a pipe: the flops expression (84) is whole at 120 columns.
  script -qc "stty cols 120; '$exe' profile '$models/gpt2_like.onnx'" /dev/null </dev/null | tr -d '\r' >"$tmp/out"
  has '^flops +past\+2\*seq\+568\*batch\*past\*seq\+268416\*batch\*seq\+568\*batch\*seq\*seq\+past\*seq\+seq\*seq\+1$'
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
  local before
  before=$(sum "$tmp/out.onnx")
  run 1 infer "$tmp/cut.onnx" -o "$tmp/out.onnx" --json "$tmp/r.json"
  [[ $(sum "$tmp/out.onnx") == "$before" ]] || fail "output modified"
  [[ ! -e $tmp/r.json ]] || fail "report written although inference did not run"
  no_temp_files "$tmp"
  # Unwritable output: exit 1, one line naming the file; the report is still
  # written (inference ran), and nothing is left behind.
  run 1 infer "$models/small_cnn.onnx" -o "$tmp/no/such/dir/out.onnx" --json "$tmp/r.json"
  err_lines 1
  one_error "file $tmp/no/such/dir/out.onnx: cannot write"
  [[ -s $tmp/r.json ]] || fail "no report although inference ran"
  grep -Fq '"errors": 0' "$tmp/r.json" || fail "report without the counts"
  no_temp_files "$tmp"
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

# -o is neither created nor modified on any non-zero exit (1, 2, 3); on
# success it is replaced and keeps its permissions.
case_output_untouched() {
  echo "this is the old content" >"$tmp/keep.onnx"
  chmod 640 "$tmp/keep.onnx"
  local before
  before=$(sum "$tmp/keep.onnx")
  echo "not a model" >"$tmp/junk.onnx"
  for out in "$tmp/keep.onnx" "$tmp/absent.onnx"; do
    run 3 infer "$models/shape_bug.onnx" -o "$out"
    run 1 infer "$tmp/junk.onnx" -o "$out"
    run 1 infer "$tmp/missing.onnx" -o "$out"
    run 2 infer "$models/small_cnn.onnx" -o "$out" --input-shape nope=1
    run 2 infer "$models/small_cnn.onnx" -o "$out" --policy never
    run 2 infer "$models/small_cnn.onnx" -o "$out" --json "$tmp"
  done
  [[ $(sum "$tmp/keep.onnx") == "$before" ]] || fail "-o modified by a failed run"
  [[ ! -e $tmp/absent.onnx ]] || fail "-o created by a failed run"
  no_temp_files "$tmp"
  run 0 infer "$models/small_cnn.onnx" -o "$tmp/keep.onnx"
  checked "$tmp/keep.onnx"
  [[ $(stat -c %a "$tmp/keep.onnx") == 640 ]] || fail "permissions not kept: $(stat -c %a "$tmp/keep.onnx")"
  no_temp_files "$tmp"
}

# --json is written whenever inference ran: with errors (exit 3, -o not
# written) and when -o cannot be written (exit 1).
case_json_on_errors() {
  run 3 infer "$models/shape_bug.onnx" -o "$tmp/b.onnx" --json "$tmp/r.json"
  [[ ! -e $tmp/b.onnx ]] || fail "-o written"
  grep -Fq '"errors": 1' "$tmp/r.json" || fail "report without the error count"
  grep -Fq '"node": "proj_out", "op_type": "MatMul"' "$tmp/r.json" || fail "report without the diagnostic"
  has "^wrote $tmp/r.json$"
  has_not "^wrote $tmp/b.onnx"
  rm -f "$tmp/r.json"
  run 1 infer "$models/shape_bug.onnx" -o "$tmp/nodir/b.onnx" --allow-errors --json "$tmp/r.json"
  grep -Fq '"errors": 1' "$tmp/r.json" || fail "report not written when -o failed"
  [[ ! -e $tmp/nodir ]] || fail "folder created"
}

# A symlink is written through: its target is replaced (or created), the
# link stays a link to it.
case_symlinks() {
  mkdir "$tmp/d"
  echo old >"$tmp/real.onnx"
  ln -s ../real.onnx "$tmp/d/link.onnx"
  ln -s absent_target.onnx "$tmp/dangling.onnx"
  echo old >"$tmp/real.json"
  ln -s real.json "$tmp/link.json"
  run 0 infer "$models/small_cnn.onnx" -o "$tmp/d/link.onnx" --json "$tmp/link.json"
  [[ -L $tmp/d/link.onnx && $(readlink "$tmp/d/link.onnx") == ../real.onnx ]] || fail "the -o symlink was replaced"
  [[ -L $tmp/link.json && $(readlink "$tmp/link.json") == real.json ]] || fail "the --json symlink was replaced"
  checked "$tmp/real.onnx"
  type_is 'output logits: 1[N,10]'
  grep -Fq '"model": ' "$tmp/real.json" || fail "the --json target was not written"
  no_temp_files "$tmp"
  no_temp_files "$tmp/d"
  run 0 infer "$models/small_cnn.onnx" -o "$tmp/dangling.onnx"
  [[ -L $tmp/dangling.onnx ]] || fail "the dangling symlink was replaced"
  checked "$tmp/absent_target.onnx"
}

# Special files are written in place, never replaced: a FIFO, /dev/stdout,
# and /dev/null (only as root could a rename replace /dev/null).
case_special_files() {
  mkfifo "$tmp/fifo"
  timeout 20 cat "$tmp/fifo" >"$tmp/from_fifo.onnx" &
  local reader=$!
  run 0 infer "$models/small_cnn.onnx" -o "$tmp/fifo"
  wait "$reader"
  [[ -p $tmp/fifo ]] || fail "the FIFO was replaced"
  checked "$tmp/from_fifo.onnx"
  type_is 'output logits: 1[N,10]'
  # /dev/stdout is standard output: the model alone on stdout, the summary on stderr.
  run 0 infer "$models/small_cnn.onnx" -o /dev/stdout
  cp "$tmp/out" "$tmp/stdout.onnx"
  checked "$tmp/stdout.onnx"
  err_has '^  output logits: float\[N,10\]$'
  if [[ $(id -u) == 0 ]]; then
    # First a private null device, so that a regression fails here before it
    # could replace the system's /dev/null.
    mknod "$tmp/null" c 1 3 || fail "mknod failed"
    run 0 infer "$models/small_cnn.onnx" -o "$tmp/null"
    [[ -c $tmp/null ]] || fail "a character device was replaced"
    run 0 infer "$models/small_cnn.onnx" -o /dev/null --json /dev/null
    [[ -c /dev/null ]] || fail "/dev/null is no longer a character device"
    ! ls -A /dev | grep -q 'symshape-' || fail "temporary file left in /dev"
  else
    echo "SKIP: the /dev/null part needs root (as another user no rename could replace it)"
  fi
}

# An output that is the input, the other output, a directory or standard
# output twice: usage error before anything runs (nothing on stdout).
case_same_paths() {
  cp "$models/small_cnn.onnx" "$tmp/m.onnx"
  ln -s m.onnx "$tmp/m_link.onnx"
  ln "$tmp/m.onnx" "$tmp/m_hard.onnx"
  local before
  before=$(sum "$tmp/m.onnx")
  for out in "$tmp/m.onnx" "$tmp/./m.onnx" "$tmp/m_link.onnx" "$tmp/m_hard.onnx"; do
    run 2 infer "$tmp/m.onnx" -o "$out"
    one_error "-o $out is the input model"
    stdout_empty
    run 2 infer "$tmp/m.onnx" --json "$out"
    one_error "--json $out is the input model"
  done
  [[ $(sum "$tmp/m.onnx") == "$before" ]] || fail "the input was modified"
  run 2 infer "$tmp/m.onnx" -o "$tmp/x.out" --json "$tmp/x.out"
  one_error "-o and --json name the same file"
  [[ ! -e $tmp/x.out ]] || fail "created"
  echo old >"$tmp/y.out"
  ln -s y.out "$tmp/y_link.out"
  run 2 infer "$tmp/m.onnx" -o "$tmp/y_link.out" --json "$tmp/y.out"
  one_error "-o and --json name the same file"
  run 2 infer "$tmp/m.onnx" -o - --json -
  one_error "-o and --json name the same file"
  mkdir "$tmp/dir"
  run 2 infer "$tmp/m.onnx" --json "$tmp/dir"
  one_error "--json $tmp/dir: is a directory"
  stdout_empty
  run 2 infer "$tmp/m.onnx" -o "$tmp/dir"
  one_error "-o $tmp/dir: is a directory"
  [[ -z $(ls -A "$tmp/dir") ]] || fail "something was written into the directory"
}

# '-': standard input for the model, standard output for -o and --json (then
# stdout holds only that file and the summary goes to stderr).
case_stdin_stdout() {
  run 0 infer "$models/small_cnn.onnx" -o "$tmp/file.onnx"
  run_stdin "$models/small_cnn.onnx" 0 infer - -o "$tmp/stdin.onnx"
  has '^<stdin>: 8 nodes, '
  cmp -s "$tmp/file.onnx" "$tmp/stdin.onnx" || fail "the model read from stdin gives another result"
  run 0 infer "$models/small_cnn.onnx" -o - --trace
  cp "$tmp/out" "$tmp/stdout.onnx"
  cmp -s "$tmp/file.onnx" "$tmp/stdout.onnx" || fail "stdout does not hold exactly the model"
  err_has '^small_cnn|: 8 nodes, '
  err_has '^  output logits: float\[N,10\]$'
  err_has '^wrote standard output$'
  err_has '^Conv +.* -> \[N,8,\(H\+1\)//2,\(W\+1\)//2\]  \(conv1\)$'
  run 0 infer "$models/small_cnn.onnx" --json -
  [[ $(head -c 1 "$tmp/out") == '{' && $(tail -n 1 "$tmp/out") == '}' ]] || fail "stdout is not only the report"
  grep -Fq '"values": [' "$tmp/out" || fail "no values in the report"
  err_has '^wrote standard output$'
  run_stdin "$models/small_cnn.onnx" 0 show -
  has '^logits +fc +Gemm +float +\[N,10\]$'
  echo "junk" >"$tmp/junk"
  run_stdin "$tmp/junk" 1 infer - -o "$tmp/never.onnx"
  one_error "file <stdin>: not a valid ONNX model"
  [[ ! -e $tmp/never.onnx ]] || fail "written"
}

# External data: relative locations are rewritten to resolve from the folder
# of -o, or a clear error when they cannot (the data file is not inside that
# folder: ONNX locations have no '..'); the data file is never written, and
# -o may not be it.
case_external_data() {
  gen_models
  local g=$tmp/gen data_sum data_time
  data_sum=$(sum "$g/ext/weights.bin")
  data_time=$(stat -c %Y "$g/ext/weights.bin")
  # A folder above the data: the location gains the folder.
  run 0 infer "$g/ext/model.onnx" -o "$g/above.onnx"
  # The same folder: the location stays.
  run 0 infer "$g/ext/model.onnx" -o "$g/ext/same.onnx"
  mkdir "$g/ext/inner"
  cp "$g/ext/model.onnx" "$g/ext/inner/model.onnx"
  "$python" - "$g" <<'PY' || fail "the written models do not load their external data"
import sys, numpy as np, onnx, onnx.numpy_helper
g = sys.argv[1]
def locations(path):
    m = onnx.load(path, load_external_data=False)
    return sorted({e.value for t in m.graph.initializer for e in t.external_data if e.key == "location"})
assert locations(g + "/above.onnx") == ["ext/weights.bin"], locations(g + "/above.onnx")
assert locations(g + "/ext/same.onnx") == ["weights.bin"], locations(g + "/ext/same.onnx")
for path in (g + "/above.onnx", g + "/ext/same.onnx"):
    onnx.checker.check_model(path)
    m = onnx.load(path)  # reads the external data through the locations
    w = {t.name: onnx.numpy_helper.to_array(t) for t in m.graph.initializer}
    assert (w["w"] == np.arange(12, dtype=np.float32).reshape(4, 3)).all(), w["w"]
    assert (w["b"] == np.array([1.5, -2.0, 3.25], dtype=np.float32)).all(), w["b"]
PY
  # A sibling folder: impossible without '..', exit 1, nothing written, the
  # report still written.
  mkdir "$g/other"
  run 1 infer "$g/ext/model.onnx" -o "$g/other/out.onnx" --json "$g/other/r.json"
  one_error "file $g/other/out.onnx: tensor 'w': its external data file .*weights.bin is not inside .*other.*'\.\.'"
  [[ ! -e $g/other/out.onnx ]] || fail "written although the data could not be located"
  [[ -s $g/other/r.json ]] || fail "no report"
  # --external-data copy|link: the data file placed beside -o at the model's
  # location, which stays; the copy is a new file with the same bytes, the link
  # the same file.
  run 0 infer "$g/ext/model.onnx" -o "$g/other/copied.onnx" --external-data copy
  has "^copied $g/other/weights.bin$"
  cmp -s "$g/ext/weights.bin" "$g/other/weights.bin" || fail "the copy differs"
  [[ $(stat -c %i "$g/ext/weights.bin") != $(stat -c %i "$g/other/weights.bin") ]] || fail "not a copy"
  mkdir "$g/linked"
  run 0 infer "$g/ext/model.onnx" -o "$g/linked/out.onnx" --external-data link
  has "^linked $g/linked/weights.bin$"
  [[ $(stat -L -c %i "$g/ext/weights.bin") == $(stat -L -c %i "$g/linked/weights.bin") ]] || fail "not a link"
  "$python" - "$g" <<'PY' || fail "the models with placed data do not load"
import sys, numpy as np, onnx, onnx.numpy_helper
g = sys.argv[1]
for path in (g + "/other/copied.onnx", g + "/linked/out.onnx"):
    m = onnx.load(path, load_external_data=False)
    assert sorted({e.value for t in m.graph.initializer for e in t.external_data if e.key == "location"}) == ["weights.bin"]
    m = onnx.load(path)  # reads the placed data
    w = {t.name: onnx.numpy_helper.to_array(t) for t in m.graph.initializer}
    assert (w["w"] == np.arange(12, dtype=np.float32).reshape(4, 3)).all(), w["w"]
PY
  # Into the model's own folder nothing is placed; a different file in the way is refused.
  run 0 infer "$g/ext/model.onnx" -o "$g/ext/copy_same.onnx" --external-data copy
  has_not "^copied"
  run 1 infer "$g/ext/model.onnx" -o "$g/other/again.onnx" --external-data link
  one_error "external data file $g/other/weights.bin exists and is not the model's .*weights.bin \(not overwritten\)"
  [[ ! -e $g/other/again.onnx ]] || fail "written although the data could not be placed"
  run 1 infer "$g/ext/model.onnx" -o "$g/missing/out.onnx" --external-data copy
  one_error "file $g/missing/out.onnx: cannot write it: folder $g/missing does not exist"
  [[ ! -e $g/missing ]] || fail "a folder was made for -o"
  run 2 infer "$g/ext/model.onnx" -o "$g/x.onnx" --external-data move
  one_error "bad --external-data 'move', expected keep, copy or link"
  # A tensor marked external without a location.
  run 1 infer "$g/ext/no_location.onnx" -o "$g/nl.onnx"
  one_error "initializer 'w': external data without a 'location'"
  [[ ! -e $g/nl.onnx ]] || fail "written"
  # -o or --json naming the data file: usage error.
  run 2 infer "$g/ext/model.onnx" -o "$g/ext/weights.bin"
  one_error "-o $g/ext/weights.bin is an external data file of the model"
  run 2 infer "$g/ext/model.onnx" --json "$g/ext/../ext/weights.bin"
  one_error "is an external data file of the model"
  [[ $(sum "$g/ext/weights.bin") == "$data_sum" && $(stat -c %Y "$g/ext/weights.bin") == "$data_time" ]] ||
    fail "the data file was modified"
  no_temp_files "$g/ext"
}

# The summary, the JSON report and show print the types the written file
# holds: '?' for a merely unknown dim, _dN for a fresh symbol.
case_contracts() {
  gen_models
  local g=$tmp/gen
  # Exact for every valid run: the broadcast of total with past+seq is its
  # exact expression; the declared 1 gives way to batch. The contracts follow
  # the summary, each with its node; stderr stays empty (they are results).
  run 0 infer "$g/contracts.onnx" -o "$g/c.onnx" --json "$g/c.json"
  stderr_empty
  has '^  output y: float\[batch,4\]$'
  has '^contracts: 3 relations that valid inputs satisfy$'
  has "^  node #0 'add_mask' \(Add\): total == past\+seq or total == 1 or past\+seq == 1 \(broadcast\)$"
  has "^  node #1 'mm' \(MatMul\): max\(total,past\+seq\)\*min\(1,total,past\+seq\) == K \(inner dims\)$"
  has "^  node #1 'mm' \(MatMul\): 1 == batch \(declared dim 0 of 'y'\)$"
  checked "$g/c.onnx"
  type_is 'value a: 1[batch,max(total,past+seq)*min(1,total,past+seq)]'
  grep -Fq '{"relation": "total == past+seq or total == 1 or past+seq == 1", "exact": "total == past+seq or total == 1 or past+seq == 1", "kind": "broadcast", "lhs": "total", "rhs": "past+seq", "node": "add_mask", "op_type": "Add", "where": "node #0 '"'add_mask'"' (Add)", "origin": "broadcast"}' "$g/c.json" ||
    fail "the report lacks the broadcast contract"
  grep -Fq '"assumptions": []' "$g/c.json" || fail "assumptions without --assume-contracts"
  # --assume-contracts: total is past+seq (no name declared for the sum), K
  # follows, batch is 1 (what the file declares); the inputs are written so.
  run 0 infer "$g/contracts.onnx" --assume-contracts -o "$g/a.onnx" --json "$g/a.json"
  has '^assumed \(--assume-contracts\): 3$'
  has "^  total = past\+seq  from node #0 'add_mask' \(Add\): total == past\+seq or total == 1 or past\+seq == 1$"
  has "^  K = past\+seq  from node #1 'mm' \(MatMul\): max\(total,past\+seq\)\*min\(1,total,past\+seq\) == K$"
  has "^  batch = 1  from node #1 'mm' \(MatMul\): 1 == batch$"
  has_not '^contracts:'
  has '^  output y: float\[1,4\]$'
  checked "$g/a.onnx"
  type_is 'input m: 1[1,past+seq]'
  type_is 'input w: 1[past+seq,4]'
  type_is 'value a: 1[1,past+seq]'
  grep -Fq '{"symbol": "total", "value": "past+seq"' "$g/a.json" || fail "the report lacks the assumption"
  # A long inner dim: the contract's expression is cut to 60 columns, whole with --full and in --json.
  run 0 infer "$g/contracts.onnx" --input-shape "w=$long_dim,4" --json "$g/l.json"
  has "^  node #1 'mm' \(MatMul\): max\(total,past\+seq\)\*min\(1,total,past\+seq\) == prompt_tokens\+image_patches\*patch_area\+… \(inner dims\)$"
  grep -Eq "\"rhs\": \"$long_canon\"" "$g/l.json" || fail "the report's contract is not whole"
  run 0 infer "$g/contracts.onnx" --input-shape "w=$long_dim,4" --full
  has "^  node #1 'mm' \(MatMul\): max\(total,past\+seq\)\*min\(1,total,past\+seq\) == $long_canon \(inner dims\)$"
}

case_types_as_written() {
  gen_models
  local g=$tmp/gen
  # After an upstream error under override, y keeps its declared float[?,?]
  # in the file (its inferred element type is undefined).
  run 3 infer "$g/upstream_error.onnx" --policy override --allow-errors -o "$g/u.onnx" --json "$g/u.json"
  has '^  output y: float\[\?,\?\]$'
  has_not 'undefined'
  checked "$g/u.onnx"
  type_is 'output y: 1[?,?]'
  grep -Fq '{"name": "y", "type": "float[?,?]"' "$g/u.json" || fail "the report does not say what the file holds"
  ! grep -Fq 'undefined' "$g/u.json" || fail "the report shows an unwritten type"
  # An anonymous input dim is written with the fresh symbol inference gave
  # it, which the output shares; inferring the output again keeps the names.
  run 0 infer "$g/anonymous.onnx" -o "$g/a.onnx"
  has '^  input  x: float\[_d0,3\]$'
  has '^  output y: float\[_d0,3\]$'
  checked "$g/a.onnx"
  type_is 'input x: 1[_d0,3]'
  type_is 'output y: 1[_d0,3]'
  run 0 infer "$g/a.onnx" -o "$g/a2.onnx"
  has '^  input  x: float\[_d0,3\]$'
  has '^  output y: float\[_d0,3\]$'
  checked "$g/a2.onnx"
  type_is 'output y: 1[_d0,3]'
  run 0 show "$g/anonymous.onnx"
  has '^x +\(input\) +- +float +\[_d0,3\]$'
  has '^y +relu +Relu +float +\[_d0,3\]$'
  # The fresh symbol can be bound, for the input and the output.
  run 0 show "$g/anonymous.onnx" --bind _d0=5
  has '^y +relu +Relu +float +\[_d0,3\] +\[5,3\] +60$'
  has '^x +\(input\) +- +float +\[_d0,3\] +\[5,3\] +60$'
}

# The summary counts the node outputs whose written type is known: a tensor
# with a rank, or a known non-tensor type (a sequence); r has no rank.
case_summary_counts() {
  gen_models
  local g=$tmp/gen
  run 0 infer "$g/partly_known.onnx"
  has "^$g/partly_known.onnx: 4 nodes, 4 values, 3 with known shape, 0 errors, 0 warnings$"
  has '^  output y: float\[_d[0-9]+,_d[0-9]+\]$'
  has '^  output q: seq\(float\[N,3\]\)$'
  has '^  output z: float\[N,3\]$'
  run 0 infer "$g/partly_known.onnx" -o "$g/p.onnx" --json "$g/p.json"
  has "^$g/partly_known.onnx: 4 nodes, 4 values, 3 with known shape, 0 errors, 0 warnings$"
  grep -Fq '{"name": "r", "type": "float?"' "$g/p.json" || fail "the report does not show r without a rank"
  run 0 infer "$g/p.onnx"
  has "^$g/p.onnx: 4 nodes, 4 values, 3 with known shape, 0 errors, 0 warnings$"
  # A name is printed up to a NUL byte in it, and no NUL byte goes out; a
  # type is cut to the room a pipe gives an expression.
  run 0 infer "$g/odd_names.onnx"
  [[ $(tr -d '\000' <"$tmp/out" | wc -c) == $(wc -c <"$tmp/out") ]] || fail "stdout has a NUL byte"
  has '^  input  a: float\[batch,3\]$'
  has '^  output y: float\[batch,3\]$'
  has $'^  input  gr\xc3\xb6\xc3\x9fe: float\\[sym0\\+sym1\\+sym10\\+sym11\\+sym12\\+sym13\\+sym14\\+sym15\\+sym16\\+\xe2\x80\xa6$'
}

# show --bind: values are dims (>= 0), each symbol once, and only symbols of
# the model (usage errors, exit 2, nothing on stdout).
case_show_bindings() {
  run 2 show "$models/small_cnn.onnx" --bind N=-1
  one_error "negative value in binding 'N=-1'"
  stdout_empty
  run 2 show "$models/small_cnn.onnx" --bind N=1,N=2
  one_error "'N' is bound twice"
  run 2 show "$models/small_cnn.onnx" --bind N=1 --bind N=1
  one_error "'N' is bound twice"
  run 2 show "$models/small_cnn.onnx" --bind N=1,Q=3,H=2
  one_error "--bind: $models/small_cnn.onnx has no symbol 'Q' \(its symbols: H, N, W\)$"
  stdout_empty
  # An empty batch is a valid binding; H=W=0 is not (the first Conv's padded
  # input is smaller than its kernel), which inferring at the bindings finds.
  run 0 show "$models/small_cnn.onnx" --bind N=0,H=8,W=8
  has '^total bytes of node outputs: 0$'
  run 3 show "$models/small_cnn.onnx" --bind N=0,H=0,W=0
  has '^total bytes of node outputs: 0$'
  one_error "node #0 'conv1' \(Conv\): spatial dim 0 of size 0 is smaller than the kernel .* \(at H=0, N=0, W=0\)$"
}

"case_$case"
echo "PASS ($case)"
