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
  local games=""
  [ -d content ] && games=$(cd content && ls -d */ 2>/dev/null | tr -d /)
  case "$cmd" in
    act)
      if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=( $(compgen -W "$games" -- "$cur") ); return; fi
      if [ "$COMP_CWORD" -eq 3 ]; then
        local actions=$(nomic act "${COMP_WORDS[2]}" --list --as _ 2>/dev/null | awk '/^(yes|no )/{print $2}')
        COMPREPLY=( $(compgen -W "$actions --list --as --at --note --dry-run" -- "$cur") ); return
      fi
      COMPREPLY=( $(compgen -W "--as --at --note --dry-run --format --quiet" -- "$cur") ) ;;
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
