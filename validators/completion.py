"""Shell completion for ``nomic``: commands, options, games and (for ``nomic act``) action names."""

from __future__ import annotations

BASH = r'''# nomic completion for bash: eval "$(nomic completion bash)"
_nomic() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local commands="act check pr fmt build serve replay due tick new checkpoint hash completion"
  # a leading --repo DIR (or --repo=DIR, which bash splits at '='): the games are DIR's, and the command
  # and its arguments come after it
  local o=1 top="$PWD"
  local -a repo=()
  if [ "${COMP_WORDS[1]}" = "--repo" ]; then
    o=3; [ "${COMP_WORDS[2]}" = "=" ] && o=4
    if [ "$COMP_CWORD" -eq $((o - 1)) ]; then COMPREPLY=( $(compgen -d -- "$cur") ); return; fi
    if [ "$COMP_CWORD" -lt "$o" ]; then COMPREPLY=(); return; fi
    top="${COMP_WORDS[o-1]/#\~/$HOME}"; repo=(--repo "$top")
  fi
  if [ "$COMP_CWORD" -eq "$o" ]; then
    [ "$o" -eq 1 ] && commands="$commands --repo"
    COMPREPLY=( $(compgen -W "$commands" -- "$cur") ); return
  fi
  local cmd="${COMP_WORDS[o]}" game action
  # the command's own words before this one (the game, the action), wherever options come among them: an option
  # taking a value skips it too (bash splits --as=Zoe at '=')
  local -a pos=()
  local i=$((o + 1)) w
  while [ "$i" -lt "$COMP_CWORD" ]; do
    w="${COMP_WORDS[i]}"
    case "$w" in
      --as|--at|--note|--format|--author|--base|--head|--remote|--branch|--why|--title|--admin|--label|--without|--game|--from|--site-dir|--repo)
        i=$((i + 1)); [ "${COMP_WORDS[i]}" = "=" ] && i=$((i + 1)) ;;
      -*) ;;
      *) pos+=("$w") ;;
    esac
    i=$((i + 1))
  done
  game="${pos[0]}"; action="${pos[1]}"
  local n=$(( ${#pos[@]} + 1 ))  # the word's place among the command's own words
  local games=""
  # the games of the repository around the folder (nomic runs from any folder inside it)
  while [ "$top" != "/" ] && [ "$top" != "." ] && [ ! -d "$top/content" ]; do top=$(dirname "$top"); done
  [ -d "$top/content" ] && games=$(cd "$top/content" && ls -d */ 2>/dev/null | tr -d /)
  # after an option that takes a value: that value, not the command's words (--as then proposal= said nothing)
  case "${COMP_WORDS[COMP_CWORD-1]}" in
    --format)
      if [ "$cmd" = act ]; then COMPREPLY=( $(compgen -W "text json github" -- "$cur") )
      else COMPREPLY=( $(compgen -W "text json github markdown" -- "$cur") ); fi
      return ;;
    --game|--from) COMPREPLY=( $(compgen -W "$games" -- "$cur") ); return ;;
    --site-dir|--repo) COMPREPLY=( $(compgen -d -- "$cur") ); return ;;
    --as|--at|--note|--author|--base|--head|--remote|--branch|--why|--title|--admin|--label|--without)
      COMPREPLY=(); return ;;
  esac
  case "$cmd" in
    act)
      case "$cur" in
        -*) COMPREPLY=( $(compgen -W "--list --as --at --note --dry-run --format --quiet --pr" -- "$cur") ); return ;;
      esac
      if [ "$n" -eq 1 ]; then COMPREPLY=( $(compgen -W "$games" -- "$cur") ); return; fi
      if [ "$n" -eq 2 ]; then
        local actions=$(nomic "${repo[@]}" act "$game" --list --as _ 2>/dev/null | awk '/^(yes|no )/{print $2}')
        COMPREPLY=( $(compgen -W "$actions --list --as --at --note --dry-run" -- "$cur") ); return
      fi
      # the action's parameters, as --list shows them (proposal= vote=?): key= with no space after it
      local params=$(nomic "${repo[@]}" act "$game" --list --as _ 2>/dev/null \
        | awk -v a="$action" \
          '/^(yes|no )/ && $2 == a {for (i = 3; i <= NF; i++) {sub(/\?$/, "", $i); print $i}}')
      COMPREPLY=( $(compgen -W "$params --as --at --note --dry-run --format --quiet --pr" -- "$cur") )
      [ "${#COMPREPLY[@]}" -eq 1 ] && [ "${COMPREPLY[0]%=}" != "${COMPREPLY[0]}" ] && compopt -o nospace 2>/dev/null
      ;;
    check) COMPREPLY=( $(compgen -W "--base --head --author --format --game --no-replay --history" -- "$cur") ) ;;
    pr) COMPREPLY=( $(compgen -W "$games --base --remote --branch --no-push --author" -- "$cur") ) ;;
    # each command's own options, as its --help lists them (one list for four offered due --without)
    replay) COMPREPLY=( $(compgen -W "$games --without --format" -- "$cur") ) ;;
    due) COMPREPLY=( $(compgen -W "$games --at" -- "$cur") ) ;;
    tick) COMPREPLY=( $(compgen -W "$games --as --at" -- "$cur") ) ;;
    new) COMPREPLY=( $(compgen -W "--from --title --at --admin" -- "$cur") ) ;;
    build) COMPREPLY=( $(compgen -W "--site-dir --strict" -- "$cur") ) ;;
    hash) COMPREPLY=( $(compgen -W "--label" -- "$cur") ) ;;
    checkpoint) COMPREPLY=( $(compgen -W "$games --as --why" -- "$cur") ) ;;
    fmt) COMPREPLY=( $(compgen -f -W "--check" -- "$cur") ) ;;
    completion) COMPREPLY=( $(compgen -W "bash zsh" -- "$cur") ) ;;
  esac
}
complete -F _nomic nomic
'''

ZSH = "# nomic completion for zsh: eval \"$(nomic completion zsh)\"\nautoload -U +X bashcompinit && bashcompinit\n"


def script(shell: str) -> str:
    return BASH if shell == "bash" else ZSH + BASH
