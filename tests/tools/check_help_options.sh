#!/usr/bin/env bash
# Checks that the top-level usage (symshape --help) lists every option of a
# command's own usage (symshape CMD --help): the options named in the usage
# lines ("usage: symshape CMD ..." and the lines after it that start with
# '['), against the top-level entry of CMD (its line and the lines after it
# that start with '[').
#
#   check_help_options.sh EXE CMD
set -u
exe=$1 cmd=$2

# The options ("-o", "--assume-contracts") of the usage entry that starts at
# the line matching $1, on standard input; bracketed or not.
options_of() {
  awk -v start="$1" '
    found && $1 !~ /^\[/ { exit }
    $0 ~ start { found = 1 }
    found { print }
  ' | grep -oE '(^|[ [])-{1,2}[a-z][a-z-]*' | sed 's/^[ []*//' | sort -u
}

own=$("$exe" "$cmd" --help | options_of "^usage: symshape $cmd ")
top=$("$exe" --help | options_of "^  symshape $cmd ")
if [[ -z $own ]]; then
  echo "FAIL: no options found in symshape $cmd --help"
  exit 1
fi
missing=$(comm -23 <(echo "$own") <(echo "$top"))
if [[ -n $missing ]]; then
  echo "FAIL: symshape --help does not list these options of symshape $cmd:" $missing
  exit 1
fi
echo "ok: symshape --help lists the options of symshape $cmd:" $own
