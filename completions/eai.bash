# bash completion for eai. Generated from the CLI by scripts/gen_completions.py; do not edit.
_eai_subcommands() {
    case "$1" in
        "") echo "approvals auth completion dev gateway schema tools" ;;
        "approvals") echo "approve get list reject" ;;
        "auth") echo "login logout status" ;;
        "gateway") echo "hash-token serve" ;;
        "tools") echo "apply delete export get invocations invoke list register scan serve update validate" ;;
    esac
}
_eai_options() {
    case "$1" in
        "") echo "--version --debug --no-color -h --help" ;;
        "approvals") echo "-h --help" ;;
        "approvals approve") echo "-h --help --comment --profile -p --output -o" ;;
        "approvals get") echo "-h --help --profile -p --output -o" ;;
        "approvals list") echo "-h --help --status --tool --limit --profile -p --output -o" ;;
        "approvals reject") echo "-h --help --comment --profile -p --output -o" ;;
        "auth") echo "-h --help" ;;
        "auth login") echo "--token-stdin --insecure-storage -h --help --profile -p --base-url --output -o" ;;
        "auth logout") echo "-h --help --profile -p --output -o" ;;
        "auth status") echo "-h --help --profile -p --output -o" ;;
        "completion") echo "-h --help" ;;
        "dev") echo "--insecure-storage -h --help --port --tools-port --data-dir --profile -p" ;;
        "gateway") echo "-h --help" ;;
        "gateway hash-token") echo "-h --help" ;;
        "gateway serve") echo "--allow-remote -h --help --host --port --data-dir --config" ;;
        "schema") echo "-h --help" ;;
        "tools") echo "-h --help" ;;
        "tools apply") echo "--dry-run --diff --exit-code -h --help --profile -p --output -o" ;;
        "tools delete") echo "--yes -y -h --help --profile -p" ;;
        "tools export") echo "--strict --static -h --help --to --format -f" ;;
        "tools get") echo "-h --help --profile -p --output -o" ;;
        "tools invocations") echo "--all --follow -f -h --help --tool --run-id --limit --profile -p --output -o" ;;
        "tools invoke") echo "--wait -h --help --args-json --args-file --run-id --idempotency-key --approval-id --profile -p --output -o" ;;
        "tools list") echo "-h --help --status --limit --profile -p --output -o" ;;
        "tools register") echo "--dry-run --diff --exit-code -h --help --profile -p --output -o" ;;
        "tools scan") echo "--check --static --strict -h --help --format -f --out --endpoint-base-url --owner --version --label --timeout" ;;
        "tools serve") echo "--allow-remote -h --help --host --port" ;;
        "tools update") echo "-h --help --owner --description --status --profile -p --output -o" ;;
        "tools validate") echo "--strict --list-rules --remote -h --help --format -f --disable --enable --max-bytes --max-depth --contract" ;;
    esac
}
_eai_valued() {
    case "$1" in
        "approvals approve") echo "--comment --profile -p --output -o" ;;
        "approvals get") echo "--profile -p --output -o" ;;
        "approvals list") echo "--status --tool --limit --profile -p --output -o" ;;
        "approvals reject") echo "--comment --profile -p --output -o" ;;
        "auth login") echo "--profile -p --base-url --output -o" ;;
        "auth logout") echo "--profile -p --output -o" ;;
        "auth status") echo "--profile -p --output -o" ;;
        "dev") echo "--port --tools-port --data-dir --profile -p" ;;
        "gateway serve") echo "--host --port --data-dir --config" ;;
        "tools apply") echo "--profile -p --output -o" ;;
        "tools delete") echo "--profile -p" ;;
        "tools export") echo "--to --format -f" ;;
        "tools get") echo "--profile -p --output -o" ;;
        "tools invocations") echo "--tool --run-id --limit --profile -p --output -o" ;;
        "tools invoke") echo "--args-json --args-file --run-id --idempotency-key --approval-id --profile -p --output -o" ;;
        "tools list") echo "--status --limit --profile -p --output -o" ;;
        "tools register") echo "--profile -p --output -o" ;;
        "tools scan") echo "--format -f --out --endpoint-base-url --owner --version --label --timeout" ;;
        "tools serve") echo "--host --port" ;;
        "tools update") echo "--owner --description --status --profile -p --output -o" ;;
        "tools validate") echo "--format -f --disable --enable --max-bytes --max-depth --contract" ;;
    esac
}
_eai_choices() {
    case "$1|$2" in
        "approvals approve|--output") echo "table json yaml" ;;
        "approvals approve|-o") echo "table json yaml" ;;
        "approvals get|--output") echo "table json yaml" ;;
        "approvals get|-o") echo "table json yaml" ;;
        "approvals list|--status") echo "pending approved rejected expired consumed all" ;;
        "approvals list|--output") echo "table json yaml" ;;
        "approvals list|-o") echo "table json yaml" ;;
        "approvals reject|--output") echo "table json yaml" ;;
        "approvals reject|-o") echo "table json yaml" ;;
        "auth login|--output") echo "table json yaml" ;;
        "auth login|-o") echo "table json yaml" ;;
        "auth logout|--output") echo "table json yaml" ;;
        "auth logout|-o") echo "table json yaml" ;;
        "auth status|--output") echo "table json yaml" ;;
        "auth status|-o") echo "table json yaml" ;;
        "tools apply|--output") echo "table json yaml" ;;
        "tools apply|-o") echo "table json yaml" ;;
        "tools export|--to") echo "openai anthropic mcp" ;;
        "tools export|--format") echo "json yaml" ;;
        "tools export|-f") echo "json yaml" ;;
        "tools get|--output") echo "table json yaml" ;;
        "tools get|-o") echo "table json yaml" ;;
        "tools invocations|--output") echo "table json yaml" ;;
        "tools invocations|-o") echo "table json yaml" ;;
        "tools invoke|--output") echo "table json yaml" ;;
        "tools invoke|-o") echo "table json yaml" ;;
        "tools list|--status") echo "draft approved restricted deprecated blocked" ;;
        "tools list|--output") echo "table json yaml" ;;
        "tools list|-o") echo "table json yaml" ;;
        "tools register|--output") echo "table json yaml" ;;
        "tools register|-o") echo "table json yaml" ;;
        "tools scan|--format") echo "yaml json" ;;
        "tools scan|-f") echo "yaml json" ;;
        "tools update|--status") echo "draft approved restricted deprecated blocked" ;;
        "tools update|--output") echo "table json yaml" ;;
        "tools update|-o") echo "table json yaml" ;;
        "tools validate|--format") echo "text json github junit sarif" ;;
        "tools validate|-f") echo "text json github junit sarif" ;;
    esac
}
_eai_args() {
    case "$1" in
        "approvals approve") echo "@files" ;;
        "approvals get") echo "@files" ;;
        "approvals reject") echo "@files" ;;
        "completion") echo "bash zsh fish" ;;
        "dev") echo "@files" ;;
        "tools apply") echo "@files" ;;
        "tools delete") echo "@files" ;;
        "tools export") echo "@files" ;;
        "tools get") echo "@files" ;;
        "tools invoke") echo "@files" ;;
        "tools register") echo "@files" ;;
        "tools scan") echo "@files" ;;
        "tools serve") echo "@files" ;;
        "tools update") echo "@files" ;;
        "tools validate") echo "@files" ;;
    esac
}
# Command path and whether the previous word is an option waiting for its value.
_eai_state() {
    local i w skip=0
    _eai_path=""
    for ((i = $1; i < $2; i++)); do
        w="${_eai_words[i]}"
        if ((skip)); then skip=0; continue; fi
        if [[ "$w" == -* ]]; then
            [[ "$w" != *=* && " $(_eai_valued "$_eai_path") " == *" $w "* ]] && skip=1
            continue
        fi
        [[ " $(_eai_subcommands "$_eai_path") " == *" $w "* ]] && _eai_path="${_eai_path:+$_eai_path }$w"
    done
}

_eai() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
    local -a _eai_words=("${COMP_WORDS[@]}")
    _eai_state 1 "$COMP_CWORD"
    local choices
    if [[ "$prev" == -* && " $(_eai_valued "$_eai_path") " == *" $prev "* ]]; then
        choices="$(_eai_choices "$_eai_path" "$prev")"
        if [[ -n "$choices" ]]; then COMPREPLY=($(compgen -W "$choices" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
        return
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(_eai_options "$_eai_path")" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -W "$(_eai_subcommands "$_eai_path")" -- "$cur"))
    local args="$(_eai_args "$_eai_path")"
    if [[ "$args" == "@files" ]]; then COMPREPLY+=($(compgen -f -- "$cur"));
    elif [[ -n "$args" ]]; then COMPREPLY+=($(compgen -W "$args" -- "$cur")); fi
}
complete -o filenames -o bashdefault -F _eai eai
