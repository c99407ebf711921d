/* volpe_cert.h — a certificate of a proof search's answer for La volpe e le oche (a set of
 * positions with the move chosen at each where one side picks), and its checker, which
 * replays the certificate with the game's own moves and trusts nothing of the search.
 *
 * The question is "does the attacker (the fox or the geese) win from the root?", the value
 * being the solver's (volpe_solve.h): play that can go on for ever is not a win. A proof
 * holds, for each position where the attacker moves, one winning move, and for each where
 * the defender moves, every move covered; it must be free of cycles (a win ends in finitely
 * many moves). A disproof holds one move for each position where the defender moves and
 * every move of the attacker covered; cycles are allowed (the defender keeps the play inside
 * the set for ever, or reaches a position the attacker does not win, and either way the
 * attacker never wins). */
#ifndef GIOCHI_VOLPE_CERT_H
#define GIOCHI_VOLPE_CERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/volpe/volpe.h"

struct volpe_db;

/* What the checker knows of a position without looking further: the attacker has won, has
 * not won (and never will: an end, a solved value, or the fox below every goose when the
 * geese attack, which the geese can then never trap since they never step back), or
 * nothing yet. */
typedef enum volpe_leaf { VOLPE_LEAF_NONE, VOLPE_LEAF_WIN, VOLPE_LEAF_NOT_WIN } volpe_leaf;

/* A set of positions (by volpe_key without the page) with a move each. */
typedef struct volpe_cert {
    uint64_t *keys;  /* VOLPE_CERT_EMPTY where free */
    int32_t *moves;  /* the move chosen there, or VOLPE_CERT_ALL */
    size_t cap, n;
} volpe_cert;

enum { VOLPE_CERT_ALL = -1 }; /* a position where every move is covered */
#define VOLPE_CERT_EMPTY UINT64_MAX

/* The key of position (geese, fox, side). */
static inline uint64_t volpe_pos_key(uint64_t geese, int fox, int side)
{
    return geese | (uint64_t)fox << 33 | (uint64_t)side << 39;
}

void volpe_cert_init(volpe_cert *c);
void volpe_cert_free(volpe_cert *c);
/* Adds key with move (or sets its move if present). */
void volpe_cert_put(volpe_cert *c, uint64_t key, int32_t move);
/* Whether key is in c; its move into *move if so (move may be NULL). */
bool volpe_cert_get(const volpe_cert *c, uint64_t key, int32_t *move);

/* What the checker found. */
typedef struct volpe_cert_report {
    bool ok;
    uint64_t nodes;        /* positions of the certificate reached from the root */
    uint64_t leaves_end;   /* leaf visits: the game ended (captures, no move) */
    uint64_t leaves_db;    /* leaf visits: a value of the database */
    uint64_t leaves_below; /* leaf visits: the fox below every goose (geese attacking) */
    int depth;             /* the longest path of a proof (plies to its leaves); 0 else */
} volpe_cert_report;

/* Checks that c proves (proof) or disproves (!proof) a win of attacker (VOLPE_FOX or
 * VOLPE_GEESE) from root (geese, fox, side) under rules r, with exact values from db where
 * its groups are solved (db may be NULL). Every move of a covered position is generated
 * afresh; a chosen move must be one of the position's moves. Fills *rep; on failure writes
 * the first reason into err. */
bool volpe_cert_check(const volpe_rules *r, struct volpe_db *db, int attacker, bool proof,
                      uint64_t geese, int fox, int side, const volpe_cert *c,
                      volpe_cert_report *rep, char *err, size_t errlen);

#endif
