# Without the bash-completion package, a minimal _get_comp_words_by_ref.
if ! declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
_get_comp_words_by_ref()
{
    while [[ $1 == -* ]]; do
        [[ $1 == -n ]] && shift
        shift
    done
    local v
    for v in "$@"; do
        case $v in
            cur) cur=${COMP_WORDS[COMP_CWORD]} ;;
            prev) prev=${COMP_WORDS[COMP_CWORD-1]} ;;
            words) words=("${COMP_WORDS[@]}") ;;
            cword) cword=$COMP_CWORD ;;
        esac
    done
}
fi

