#!/usr/bin/env bash
# Runs the symshape command once and checks its exit code, stdout and stderr exactly.
#
#   check_cli.sh EXE [--exit N|error] [--stdout TEXT] [--stdout-has REGEX]
#                    [--stdout-lacks REGEX] [--stdout-max-width N]
#                    [--error REGEX] [--stderr-has REGEX] [--stdin FILE] -- ARGS...
#
#   --exit N          the exit code must be N (default 0)
#   --exit error      the exit code must be 1..125: a failure, not a crash or a signal
#   --stdout TEXT     stdout must be exactly TEXT, with printf %b escapes ('b\n2\n');
#                     without --stdout or --stdout-has, stdout must be empty
#   --stdout-has RE   stdout must have a line matching the extended regex RE (may
#                     repeat: every RE must match)
#   --stdout-lacks RE no stdout line may match RE (may repeat; stdout may be empty)
#   --stdout-max-width N  no stdout line may be wider than N characters (UTF-8
#                     code points)
#   --error RE        stderr must be exactly one line, starting with "symshape" and
#                     matching RE; implies --exit error unless --exit is given
#   --stderr-has RE   stderr must have a line matching RE (any number of lines;
#                     may repeat)
#                     without --error or --stderr-has, stderr must be empty
#   --stdin FILE      standard input is FILE (default /dev/null)
set -u

exe=$1
shift
want_exit=0 exit_given=0 want_stdout= stdout_given=0 error_re=
stdout_res=() stdout_lacks=() stderr_res=() stdin_file=/dev/null max_width=
while (($#)); do
  case $1 in
    --exit) want_exit=$2; exit_given=1; shift 2 ;;
    --stdout) want_stdout=$2; stdout_given=1; shift 2 ;;
    --stdout-has) stdout_res+=("$2"); shift 2 ;;
    --stdout-lacks) stdout_lacks+=("$2"); shift 2 ;;
    --stdout-max-width) max_width=$2; shift 2 ;;
    --error) error_re=$2; shift 2 ;;
    --stderr-has) stderr_res+=("$2"); shift 2 ;;
    --stdin) stdin_file=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "check_cli.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if [[ -n $error_re && $exit_given == 0 ]]; then want_exit=error; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'running:'
printf ' %q' "$exe" "$@"
printf '\n'
"$exe" "$@" >"$tmp/out" 2>"$tmp/err" <"$stdin_file"
rc=$?

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# Exit code.
if [[ $want_exit == error ]]; then
  if ((rc == 0)); then
    fail "exit code 0, expected a failure"
  elif ((rc > 125)); then
    fail "exit code $rc: crashed or killed by a signal"
  fi
elif ((rc != want_exit)); then
  fail "exit code $rc, expected $want_exit"
fi

# Stdout.
if ((stdout_given)); then
  printf '%b' "$want_stdout" >"$tmp/want"
  cmp -s "$tmp/want" "$tmp/out" || fail "stdout differs from the expected text"
elif ((${#stdout_res[@]})); then
  for re in "${stdout_res[@]}"; do
    grep -Eq -- "$re" "$tmp/out" || fail "no stdout line matches /$re/"
  done
elif [[ -s $tmp/out ]] && ((${#stdout_lacks[@]} == 0)) && [[ -z $max_width ]]; then
  fail "stdout should be empty"
fi
for re in ${stdout_lacks[@]+"${stdout_lacks[@]}"}; do
  ! grep -Eq -- "$re" "$tmp/out" || fail "a stdout line matches /$re/"
done
if [[ -n $max_width ]]; then
  widest=$(LC_ALL=C.UTF-8 wc -L <"$tmp/out")
  ((widest <= max_width)) || fail "a stdout line is $widest characters wide, more than $max_width"
fi

# Stderr.
if [[ -n $error_re ]]; then
  lines=$(wc -l <"$tmp/err")
  if [[ ! -s $tmp/err ]]; then
    fail "no error message on stderr"
  elif ((lines != 1)) || [[ $(tail -c 1 "$tmp/err" | od -An -c | tr -d ' ') != '\n' ]]; then
    fail "stderr should be exactly one line ending in a newline"
  else
    grep -Eq -- '^symshape' "$tmp/err" || fail "the error should start with 'symshape'"
    grep -Eq -- "$error_re" "$tmp/err" || fail "the error does not match /$error_re/"
  fi
elif ((${#stderr_res[@]})); then
  for re in "${stderr_res[@]}"; do
    grep -Eq -- "$re" "$tmp/err" || fail "no stderr line matches /$re/"
  done
elif [[ -s $tmp/err ]]; then
  fail "stderr should be empty"
fi

echo "exit code: $rc"
echo "--- stdout ---"
cat "$tmp/out"
echo "--- stderr ---"
cat "$tmp/err"
if ((failures)); then
  if ((stdout_given)); then
    echo "--- expected stdout ---"
    printf '%b' "$want_stdout"
  fi
  exit 1
fi
echo "ok"
