/* volpe_prove.h — a proof search for La volpe e le oche: depth-first proof-number search
 * (df-pn) with a transposition table of bounded size, asking whether one side (the
 * attacker) wins from the start, with exact leaves from a solved database, and the
 * certificate of its answer (volpe_cert.h) for an independent check.
 *
 * The value asked is the solver's (volpe_solve.h): play that can go on for ever is not a
 * win. A move into a position already on the search path counts as not a win for the
 * attacker. A proof therefore never rests on a repetition and holds whatever the path: it is
 * stored in the table as final. A disproof may rest on one (the position repeated might be
 * won by another way), so a disproof of the start is claimed only when its certificate, a
 * set of positions closed under the attacker's moves and one defending move each, passes
 * the checker, which makes it sound whatever the search did. */
#ifndef GIOCHI_VOLPE_PROVE_H
#define GIOCHI_VOLPE_PROVE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "games/volpe/volpe.h"
#include "games/volpe/volpe_cert.h"

struct volpe_db;

/* How a node met for the first time is valued before it is searched. */
typedef enum volpe_guess {
    VOLPE_GUESS_MOVES, /* its moves: the mover's count as the number it must refute */
    VOLPE_GUESS_ROOM,  /* with the fox to move, the fox's room and threats (see .c) */
} volpe_guess;

typedef struct volpe_prove_opts {
    int attacker;            /* VOLPE_FOX or VOLPE_GEESE: whose win is asked */
    uint64_t max_nodes;      /* expansions before the search gives up (0: no limit) */
    uint64_t table_bytes;    /* the transposition table (rounded down to a power of two) */
    struct volpe_db *db;     /* exact leaves where a group is solved (NULL: none) */
    uint64_t db_bytes;       /* groups of db kept in memory, at most */
    volpe_guess guess;       /* first numbers of a new node */
    bool progress;           /* a progress line on standard error (rewritten in place) */
    volatile sig_atomic_t *stop; /* set by a signal handler: give up at once */
} volpe_prove_opts;

typedef enum volpe_answer {
    VOLPE_PROVED,     /* the attacker wins, and the certificate checks */
    VOLPE_DISPROVED,  /* the attacker does not win, and the certificate checks */
    VOLPE_UNKNOWN,    /* out of nodes, stopped, or a disproof whose certificate failed */
} volpe_answer;

typedef struct volpe_prove_result {
    volpe_answer answer;
    bool searched_disproof;  /* the search disproved the root (whatever its certificate) */
    uint64_t nodes;          /* positions expanded (the search and the certificate's) */
    uint32_t root_pn, root_dn; /* the root's proof and disproof numbers at the end */
    int max_depth;           /* the deepest the search path went (plies) */
    int last_depth;          /* the depth of the last most-proving node expanded */
    uint64_t table_entries, table_used; /* slots of the table, and filled at the end */
    uint64_t repetitions;    /* moves into a position on the path met */
    uint64_t db_leaves;      /* leaves valued from the database */
    uint64_t below_leaves;   /* leaves with the fox below every goose (geese attacking) */
    double seconds;
    uint64_t peak_db_bytes;  /* the most database values held at once */
    volpe_cert cert;         /* the certificate (empty unless PROVED or DISPROVED) */
    volpe_cert_report check; /* the checker's report on it */
    bool check_failed;       /* the checker refused the certificate built */
    char check_error[512];   /* why the certificate failed, if it did */
} volpe_prove_result;

/* Asks whether opts->attacker wins from position (geese, fox, side) under rules r
 * (geese_blocked lose or draw); fills *res (free res->cert with volpe_cert_free). The answer
 * is PROVED or DISPROVED only after volpe_cert_check passed on the certificate built. The
 * search is deterministic: the same position, rules, options and database, the same
 * nodes and answer. */
void volpe_prove(const volpe_rules *r, uint64_t geese, int fox, int side,
                 const volpe_prove_opts *opts, volpe_prove_result *res);

#endif
