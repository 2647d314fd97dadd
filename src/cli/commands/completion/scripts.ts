// The shell scripts of `esign completion`: each asks `esign __complete -- WORDS...` for the word
// under the cursor, so nouns, verbs, flags and ids always match the installed esign.

const bash = `# esign completion for bash
_esign_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" IFS=$'\\n'
  local out
  out=$(esign __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null | cut -f1)
  [[ $cur == = ]] && cur=''
  COMPREPLY=($(compgen -W "$out" -- "$cur"))
}
complete -o default -o nosort -F _esign_complete esign 2>/dev/null || complete -o default -F _esign_complete esign
`;

const zsh = `#compdef esign
# esign completion for zsh
_esign() {
  local -a items
  local line
  for line in "\${(@f)$(esign __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -z $line ]] && continue
    items+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
  done
  if (( \${#items} )); then _describe 'esign' items; else _files; fi
}
compdef _esign esign
`;

const fish = `# esign completion for fish
complete -c esign -f -a '(esign __complete -- (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`;

export const SCRIPTS = { bash, zsh, fish } as const;
