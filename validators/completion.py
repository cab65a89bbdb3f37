"""Shell completion for ``nomic``: commands, options, games and (for ``nomic act``) action names."""

from __future__ import annotations

BASH = r'''# nomic completion for bash: eval "$(nomic completion bash)"
_nomic() {
  local cur prev words cword
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  local commands="act check fmt build serve replay due tick new hash completion"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "$commands --repo" -- "$cur") ); return
  fi
  local cmd="${COMP_WORDS[1]}"
  local games="" top="$PWD"
  # the games of the repository around the current folder (nomic runs from any folder inside it)
  while [ "$top" != "/" ] && [ ! -d "$top/content" ]; do top=$(dirname "$top"); done
  [ -d "$top/content" ] && games=$(cd "$top/content" && ls -d */ 2>/dev/null | tr -d /)
  case "$cmd" in
    act)
      if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=( $(compgen -W "$games" -- "$cur") ); return; fi
      if [ "$COMP_CWORD" -eq 3 ]; then
        local actions=$(nomic act "${COMP_WORDS[2]}" --list --as _ 2>/dev/null | awk '/^(yes|no )/{print $2}')
        COMPREPLY=( $(compgen -W "$actions --list --as --at --note --dry-run" -- "$cur") ); return
      fi
      # the action's parameters, as --list shows them (proposal= vote=?): key= with no space after it
      local params=$(nomic act "${COMP_WORDS[2]}" --list --as _ 2>/dev/null \
        | awk -v a="${COMP_WORDS[3]}" \
          '/^(yes|no )/ && $2 == a {for (i = 3; i <= NF; i++) {sub(/\?$/, "", $i); print $i}}')
      COMPREPLY=( $(compgen -W "$params --as --at --note --dry-run --format --quiet" -- "$cur") )
      [ "${#COMPREPLY[@]}" -eq 1 ] && [ "${COMPREPLY[0]%=}" != "${COMPREPLY[0]}" ] && compopt -o nospace 2>/dev/null
      ;;
    check) COMPREPLY=( $(compgen -W "--base --head --author --format --game --no-replay" -- "$cur") ) ;;
    replay|due|tick|new) COMPREPLY=( $(compgen -W "$games --without --format --at --as --from --title" -- "$cur") ) ;;
    fmt) COMPREPLY=( $(compgen -f -W "--check" -- "$cur") ) ;;
    completion) COMPREPLY=( $(compgen -W "bash zsh" -- "$cur") ) ;;
  esac
}
complete -F _nomic nomic
'''

ZSH = "# nomic completion for zsh: eval \"$(nomic completion zsh)\"\nautoload -U +X bashcompinit && bashcompinit\n"


def script(shell: str) -> str:
    return BASH if shell == "bash" else ZSH + BASH
