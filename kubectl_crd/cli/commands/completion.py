"""``kubectl crd completion bash|zsh|fish``: a shell script completing ``kubectl-crd``.

Under kubectl (1.26+) no script is needed: kubectl's own completion runs
``kubectl_complete-crd`` (``cli.completion``). These scripts are for ``kubectl-crd``
run on its own. Each asks ``kubectl-crd __complete WORDS... CURRENT`` and reads
cobra's answer (candidates, ``value<TAB>description``, then ``:DIRECTIVE``), handling
the directives as cobra's own scripts do (``github.com/spf13/cobra``
``bash_completionsV2.go``, ``zsh_completions.go``, ``fish_completions.go``): 1 offers
nothing, 2 adds no space, 4 offers no files when there are no candidates, 8 offers
files with the candidates as extensions, 16 directories only. Written here, not
copied: bash 3.2 (macOS) is enough, and none of bash-completion's helpers is needed.
"""

from __future__ import annotations

import click

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import Flag
from kubectl_crd.cli.options import kubectl_command

HELP = """Print a shell script that completes kubectl-crd when run on its own.

\b
Examples:
  source <(kubectl-crd completion bash)     # in ~/.bashrc
  source <(kubectl-crd completion zsh)      # in ~/.zshrc, after compinit
  kubectl-crd completion fish | source      # in ~/.config/fish/config.fish

`kubectl crd <TAB>` needs no script: kubectl (1.26+) runs kubectl_complete-crd from
PATH, which pip and pipx install next to kubectl-crd (a krew install prints the one
command that links it).
"""

FLAGS: tuple[Flag, ...] = ()

BASH = r"""# bash completion for kubectl-crd (kubectl crd completion bash)
# Load it with: source <(kubectl-crd completion bash)
__kubectl_crd_complete() {
    local line=${COMP_LINE:0:COMP_POINT} cur="" out l directive=0
    local -a words lines values
    read -r -a words <<< "$line"
    if [[ $line != *[[:space:]] ]]; then
        ((${#words[@]} > 1)) || return 0
        cur=${words[${#words[@]}-1]}
        unset "words[${#words[@]}-1]"
    fi
    out=$("${words[0]}" __complete "${words[@]:1}" "$cur" 2>/dev/null) || return 0
    while IFS= read -r l; do lines+=("$l"); done <<< "$out"
    l=${lines[${#lines[@]}-1]}
    if [[ $l == :* ]]; then
        directive=${l#:}
        unset "lines[${#lines[@]}-1]"
    fi
    COMPREPLY=()
    ((directive & 1)) && return 0
    # the value of --flag=value is completed alone (bash splits the word at '=')
    [[ $cur == -*=* ]] && cur=${cur#*=}
    for l in "${lines[@]}"; do [[ -n $l ]] && values+=("${l%%$'\t'*}"); done
    if ((directive & 8)); then
        compopt -o filenames 2>/dev/null
        for l in "${values[@]}"; do
            while IFS= read -r out; do COMPREPLY+=("$out"); done < <(compgen -f -X "!*.$l" -- "$cur")
        done
        while IFS= read -r out; do COMPREPLY+=("$out"); done < <(compgen -d -- "$cur")
        return 0
    fi
    if ((directive & 16)); then
        compopt -o filenames 2>/dev/null
        while IFS= read -r out; do COMPREPLY+=("$out"); done < <(compgen -d -- "$cur")
        return 0
    fi
    for l in "${values[@]}"; do [[ $l == "$cur"* ]] && COMPREPLY+=("$l"); done
    if ((${#COMPREPLY[@]} == 0)); then
        ((directive & 4)) && return 0
        compopt -o filenames 2>/dev/null
        while IFS= read -r out; do COMPREPLY+=("$out"); done < <(compgen -f -- "$cur")
        return 0
    fi
    ((directive & 2)) && compopt -o nospace 2>/dev/null
    ((directive & 32)) && compopt -o nosort 2>/dev/null
    # bash replaces only the part of the word after its last ':' (COMP_WORDBREAKS)
    if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
        l=${cur%"${cur##*:}"}
        for out in "${!COMPREPLY[@]}"; do COMPREPLY[out]=${COMPREPLY[out]#"$l"}; done
    fi
    return 0
}
complete -F __kubectl_crd_complete kubectl-crd
"""

ZSH = r"""#compdef kubectl-crd
# zsh completion for kubectl-crd (kubectl crd completion zsh)
# Load it with: source <(kubectl-crd completion zsh)  (after compinit)
_kubectl_crd() {
  local cur=${words[CURRENT]} out line directive=0 prefix=""
  local -a lines described exts opts
  out=$("${words[1]}" __complete "${(@)words[2,CURRENT-1]}" "$cur" 2>/dev/null) || return 1
  lines=("${(@f)out}")
  if [[ ${lines[-1]} == :* ]]; then
    directive=${lines[-1]#:}
    lines[-1]=()
  fi
  (( directive & 1 )) && return 1
  # the value of --flag=value is completed alone and the flag put back in front
  if [[ $cur == -*=* ]]; then
    prefix=${cur%%=*}=
  fi
  if (( directive & 24 )); then
    # files after the '=' of --flag=PATH
    [[ -n $prefix ]] && compset -P '*='
    if (( directive & 8 )); then
      for line in $lines; do exts+=("$line"); done
      _files -g "*.(${(j:|:)exts})"
    else
      _files -/
    fi
    return
  fi
  for line in $lines; do
    [[ -z $line ]] && continue
    if [[ $line == *$'\t'* ]]; then
      described+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}")
    else
      described+=("${line//:/\\:}")
    fi
  done
  if (( ${#described} == 0 )); then
    (( directive & 4 )) || _files
    return
  fi
  (( directive & 2 )) && opts+=(-S '')
  [[ -n $prefix ]] && opts+=(-P "$prefix")
  _describe -t values completion described "${opts[@]}"
}
if [[ $funcstack[1] == _kubectl_crd ]]; then
  _kubectl_crd "$@"
else
  compdef _kubectl_crd kubectl-crd
fi
"""

FISH = r"""# fish completion for kubectl-crd (kubectl crd completion fish)
# Load it with: kubectl-crd completion fish | source
function __kubectl_crd_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l out (command $tokens[1] __complete $tokens[2..-1] $cur 2>/dev/null)
    or return
    set -l directive 0
    if string match -qr -- '^:[0-9]+$' $out[-1]
        set directive (string sub -s 2 -- $out[-1])
        set -e out[-1]
    end
    test (math "$directive % 2") -eq 1; and return
    set -l prefix ''
    if string match -qr -- '^-[^=]*=' $cur
        set prefix (string match -r -- '^-[^=]*=' $cur)
        set cur (string replace -r -- '^-[^=]*=' '' $cur)
    end
    # files with the extensions given (fish's __fish_complete_suffix would list the others
    # after them), and directories
    if test (math "floor($directive / 8) % 2") -eq 1
        set -l pattern (string join '|' -- (string escape --style=regex -- $out))
        for path in $cur*
            if test -d $path
                printf '%s%s/\n' $prefix $path
            else if string match -qr -- "\.($pattern)\$" $path
                printf '%s%s\n' $prefix $path
            end
        end
        return
    end
    if test (math "floor($directive / 16) % 2") -eq 1
        for path in $cur*
            test -d $path; and printf '%s%s/\n' $prefix $path
        end
        return
    end
    for line in $out
        test -n "$line"; and printf '%s%s\n' $prefix $line
    end
    if test (count $out) -eq 0; and test (math "floor($directive / 4) % 2") -eq 0
        for path in (__fish_complete_path $cur)
            printf '%s%s\n' $prefix $path
        end
    end
end
complete -c kubectl-crd -f -a '(__kubectl_crd_complete)'
"""

SCRIPTS = {"bash": BASH, "zsh": ZSH, "fish": FISH}


@kubectl_command("completion", help=HELP)
@click.argument("shell", type=click.Choice(tuple(SCRIPTS)))
def command(app: Application, shell: str) -> None:
    click.echo(SCRIPTS[shell], nl=False)
