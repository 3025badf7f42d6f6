#!/bin/sh
# Print the path of a working Python interpreter of version $1 (e.g. 3.13), or explain what is missing and fail.
#
# Looks on PATH first (pyenv shims count only when they really run that version), then in pyenv's versions folder
# ($(pyenv root)/versions/<version>*/bin), then in the usual install prefixes. The bpy wheels need an exact minor:
# 4.2-5.0 are cp311, 5.1+ are cp313, so "a python3" is not good enough.
set -u
want="$1"
works() {
    [ -x "$1" ] && "$1" -c "import sys, venv; sys.exit(0 if '%d.%d' % sys.version_info[:2] == '$want' else 1)" \
        >/dev/null 2>&1
}
candidate="$(command -v "python$want" 2>/dev/null)"
if [ -n "$candidate" ] && works "$candidate"; then echo "$candidate"; exit 0; fi
roots=""
if command -v pyenv >/dev/null 2>&1; then roots="$(pyenv root 2>/dev/null)"; fi
for root in $roots "${PYENV_ROOT:-}" "$HOME/.pyenv"; do
    [ -n "$root" ] || continue
    for candidate in "$root"/versions/"$want"*/bin/python"$want"; do
        if works "$candidate"; then echo "$candidate"; exit 0; fi
    done
done
for candidate in /usr/local/bin/python"$want" /usr/bin/python"$want" /opt/python"$want"/bin/python"$want"; do
    if works "$candidate"; then echo "$candidate"; exit 0; fi
done
echo "error: Python $want was not found (looked for python$want on PATH, in pyenv's versions and in /usr/local/bin," >&2
echo "       /usr/bin). The bpy wheels for this tier need exactly Python $want: install it (e.g. 'pyenv install $want')" >&2
echo "       or pass its path: make PYTHON_$(echo "$want" | tr -d .)=/path/to/python$want" >&2
exit 1
