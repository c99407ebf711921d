/* completion.c — the bash and zsh completion scripts: one table function of words written from
 * the option table and the catalog (plain sh, which both shells run), and each shell's own
 * completing function around it. */
#include "cli/completion.h"

#include <argp.h>
#include <string.h>

#include "cli/catalog.h"
#include "cli/options.h"

/* Writes the "name" member of every element of array, space-separated, with suffix after
 * each (e.g. "=" for keys that take a value); skips keys inside arrays ("board[].effect"). */
static void names(FILE *f, const cJSON *array, const char *member, const char *suffix)
{
    const cJSON *e;
    bool first = true;
    cJSON_ArrayForEach(e, array) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, member);
        if (!cJSON_IsString(n) || strchr(n->valuestring, '['))
            continue;
        fprintf(f, "%s%s%s", first ? "" : " ", n->valuestring, suffix);
        first = false;
    }
}

/* The case arms of one table function: `GAME) echo 'WORDS' ;;` for each game. */
static void game_arms(FILE *f, const cJSON *games, const char *array, const char *member,
                      const char *suffix)
{
    const cJSON *g;
    cJSON_ArrayForEach(g, games) {
        fprintf(f, "    %s) echo '", cJSON_GetObjectItemCaseSensitive(g, "name")->valuestring);
        names(f, cJSON_GetObjectItemCaseSensitive(g, array), member, suffix);
        fprintf(f, "' ;;\n");
    }
}

/* The shell function that does the completing: reads the line up to the cursor, finds the
 * game, and offers what the option being completed takes. */
static const char body[] =
    "_giochi_sim() {\n"
    "    local line=${COMP_LINE:0:COMP_POINT}\n"
    "    local cur=${line##*[[:space:]]}\n"
    "    local before=${line%\"$cur\"}\n"
    "    before=${before%\"${before##*[![:space:]]}\"}\n"
    "    local prev=${before##*[[:space:]]} game= p= w\n"
    "    for w in $line; do\n"
    "        case $p in --game|-g) game=$w ;; esac\n"
    "        case $w in --game=*) game=${w#--game=} ;; -g?*) game=${w#-g} ;; esac\n"
    "        p=$w\n"
    "    done\n"
    "    local opt= val= words= pre=\n"
    "    case $cur in\n"
    "    --*=*) opt=${cur%%=*}; val=${cur#*=}; pre=$opt= ;;\n"
    "    -*) words=$(_giochi_sim_words options) ;;\n"
    "    *) case $prev in -?|--*) opt=$prev; val=$cur ;; esac ;;\n"
    "    esac\n"
    "    local head= tail=$val\n"
    "    case $opt in\n"
    "    --bots|-b|--tournament|--metric|--sensitivity)\n"
    "        case $val in *,*) head=${val%,*},; tail=${val##*,} ;; esac ;;\n"
    "    esac\n"
    "    case $opt in\n"
    "    '') ;;\n"
    "    --game|-g) words=$(_giochi_sim_words games) ;;\n"
    "    --format|-f) words='text json csv html' ;;\n"
    "    --completion) words='bash zsh' ;;\n"
    "    --bots|-b|--tournament)\n"
    "        case $tail in\n"
    "        *:*) local bot=${tail%%:*} rest=${tail%:*}:\n"
    "            for w in $(_giochi_sim_words params \"$game\" \"$bot\"); do\n"
    "                words=\"$words $rest$w=\"; done ;;\n"
    "        *) words=$(_giochi_sim_words bots \"$game\") ;;\n"
    "        esac ;;\n"
    "    --set|--sweep|--over) words=$(_giochi_sim_words keys \"$game\") ;;\n"
    "    --sensitivity) words=$(_giochi_sim_words keys \"$game\" | sed 's/=//g') ;;\n"
    "    --metric|--until|--maximize|--minimize|--target)\n"
    "        words=$(_giochi_sim_words metrics \"$game\") ;;\n"
    "    --config|-c|--output|-o|--games-csv|--plot|--html|--replay)\n"
    "        words=$(compgen -f -- \"$val\") ;;\n"
    "    *) return 0 ;;\n"
    "    esac\n"
    "    [ -n \"$opt\" ] && pre=$pre$head\n"
    "    local c cands=\n"
    "    for c in $words; do cands=\"$cands $pre$c\"; done\n"
    "    COMPREPLY=()\n"
    "    local cut=0 k\n"
    "    for ((k = ${#cur} - 1; k >= 0; k--)); do\n"
    "        case $COMP_WORDBREAKS in *\"${cur:k:1}\"*) cut=$((k + 1)); break ;; esac\n"
    "    done\n"
    "    for c in $(compgen -W \"$cands\" -- \"$cur\"); do\n"
    "        COMPREPLY+=(\"${c:cut}\")\n"
    "        case $c in *=|*:|*,) compopt -o nospace 2>/dev/null ;; esac\n"
    "    done\n"
    "    return 0\n"
    "}\n"
    "complete -F _giochi_sim giochi-sim\n";

/* zsh's: the same choices through compset (the option, the list's head and a bot's name move
 * into IPREFIX) and compadd; loaded from $fpath (the file _giochi-sim, its #compdef line) it
 * completes at once, sourced it registers itself with compdef. */
static const char zsh_body[] =
    "_giochi_sim() {\n"
    "    local prev=${words[CURRENT-1]} game= p= w opt=\n"
    "    for w in ${words[2,CURRENT-1]}; do\n"
    "        case $p in --game|-g) game=$w ;; esac\n"
    "        case $w in --game=*) game=${w#--game=} ;; -g?*) game=${w#-g} ;; esac\n"
    "        p=$w\n"
    "    done\n"
    "    case $PREFIX in\n"
    "    --*=*) opt=${PREFIX%%=*}; compset -P '*=' ;;\n"
    "    -*) local -a takes plain\n"
    "        for w in ${=\"$(_giochi_sim_words options)\"}; do\n"
    "            case $w in *=) takes+=($w) ;; *) plain+=($w) ;; esac\n"
    "        done\n"
    "        compadd -S '' -- $takes\n"
    "        compadd -- $plain\n"
    "        return 0 ;;\n"
    "    *) case $prev in -?|--*) opt=$prev ;; esac ;;\n"
    "    esac\n"
    "    case $opt in\n"
    "    --bots|-b|--tournament|--metric|--sensitivity) compset -P '*,' ;;\n"
    "    esac\n"
    "    local -a cands\n"
    "    case $opt in\n"
    "    --game|-g) cands=(${=\"$(_giochi_sim_words games)\"}) ;;\n"
    "    --format|-f) cands=(text json csv html) ;;\n"
    "    --completion) cands=(bash zsh) ;;\n"
    "    --bots|-b|--tournament)\n"
    "        if [[ $PREFIX == *:* ]]; then\n"
    "            local bot=${PREFIX%%:*}\n"
    "            compset -P '*:'\n"
    "            compadd -S '=' -- ${=\"$(_giochi_sim_words params \"$game\" \"$bot\")\"}\n"
    "            return 0\n"
    "        fi\n"
    "        cands=(${=\"$(_giochi_sim_words bots \"$game\")\"}) ;;\n"
    "    --set|--sweep|--over)\n"
    "        compadd -S '' -- ${=\"$(_giochi_sim_words keys \"$game\")\"}\n"
    "        return 0 ;;\n"
    "    --sensitivity) cands=(${=\"$(_giochi_sim_words keys \"$game\")\"}); cands=(${cands%=}) ;;\n"
    "    --metric|--until|--maximize|--minimize|--target)\n"
    "        cands=(${=\"$(_giochi_sim_words metrics \"$game\")\"}) ;;\n"
    "    --config|-c|--output|-o|--games-csv|--plot|--html|--replay) _files; return ;;\n"
    "    *) return 1 ;;\n"
    "    esac\n"
    "    compadd -- $cands\n"
    "}\n"
    "\n"
    "if [ \"$funcstack[1]\" = _giochi-sim ]; then\n"
    "    _giochi_sim \"$@\"\n"
    "else\n"
    "    compdef _giochi_sim giochi-sim\n"
    "fi\n";

/* The table function _giochi_sim_words, the same for both shells. */
static void write_words(FILE *f)
{
    cJSON *all = catalog_all(NULL);
    const cJSON *games = cJSON_GetObjectItemCaseSensitive(all, "games");
    fprintf(f, "# _giochi_sim_words KIND [GAME [BOT]]: the words KIND offers (options, games,\n"
               "# and a game's bots, params of a bot, keys, metrics)\n"
               "_giochi_sim_words() {\n    case $1 in\n    options) echo '");
    bool first = true;
    for (const struct argp_option *p = options_table(); !OPTION_END(p); p++) {
        if (p->name == NULL)
            continue;
        fprintf(f, "%s--%s%s", first ? "" : " ", p->name,
                p->arg && !(p->flags & OPTION_ARG_OPTIONAL) ? "=" : "");
        first = false;
    }
    fprintf(f, "' ;;\n    games) echo '");
    names(f, games, "name", "");
    fprintf(f, "' ;;\n    bots) case $2 in\n");
    game_arms(f, games, "bots", "name", "");
    fprintf(f, "    esac ;;\n    keys) case $2 in\n");
    game_arms(f, games, "keys", "key", "=");
    fprintf(f, "    esac ;;\n    metrics) case $2 in\n");
    game_arms(f, games, "figures", "name", "");
    fprintf(f, "    esac ;;\n    params) case $2:$3 in\n");
    const cJSON *g;
    cJSON_ArrayForEach(g, games) {
        const cJSON *b;
        cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(g, "bots")) {
            const cJSON *params = cJSON_GetObjectItemCaseSensitive(b, "params");
            if (cJSON_GetArraySize(params) == 0)
                continue;
            fprintf(f, "    %s:%s) echo '",
                    cJSON_GetObjectItemCaseSensitive(g, "name")->valuestring,
                    cJSON_GetObjectItemCaseSensitive(b, "name")->valuestring);
            names(f, params, "name", "");
            fprintf(f, "' ;;\n");
        }
    }
    fprintf(f, "    esac ;;\n    esac\n}\n\n");
    cJSON_Delete(all);
}

int completion_write(FILE *f, const char *shell)
{
    if (strcmp(shell, "bash") == 0) {
        fprintf(f, "# bash completion for giochi-sim %s, written by giochi-sim --completion=bash\n"
                   "# (install as /usr/share/bash-completion/completions/giochi-sim, or source "
                   "it)\n\n",
                GIOCHI_VERSION);
        write_words(f);
        fputs(body, f);
        return 0;
    }
    if (strcmp(shell, "zsh") == 0) {
        fprintf(f, "#compdef giochi-sim\n"
                   "# zsh completion for giochi-sim %s, written by giochi-sim --completion=zsh\n"
                   "# (install as _giochi-sim in a folder of $fpath, such as\n"
                   "# /usr/local/share/zsh/site-functions; or source it after compinit)\n\n",
                GIOCHI_VERSION);
        write_words(f);
        fputs(zsh_body, f);
        return 0;
    }
    return -1;
}
