# XLA_FLAGS sweep: bash flag_sweep.sh GAME PLAYERS "--flag=value" ...  (two rounds, each flag set in its own process)
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
game=$1; n=$2; shift 2
for rep in 1 2; do
for flags in "" "$@"; do
  r=$(XLA_FLAGS="$flags" PYTHONPATH=. .venv/bin/python "$here/flag_one.py" $game $n 2>&1 | grep RESULT)
  echo "$rep [$flags] $r"
done; done
