/* volpe_db.h — the solved positions of La volpe e le oche: groups of positions by the geese
 * in each row, a perfect ranking of the positions of a group, the values' one-byte code, and
 * the directory of group files (each checked by size and SHA-256 before it is trusted). */
#ifndef GIOCHI_VOLPE_DB_H
#define GIOCHI_VOLPE_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/volpe/volpe.h"

enum {
    VOLPE_ROWS = 7,
    VOLPE_PROFILES = 4 * 4 * 8 * 8 * 8 * 4 * 4, /* codes of the geese-per-row profiles */
    VOLPE_DIST_MAX = 127,                        /* longest distance a value byte holds */
};

/* A value byte, for the side to move: 0 a draw (play can go on for ever), 1..127 a win that
 * converts in that many plies, VOLPE_LOSS + d (d 0..127) a loss that the side to move can
 * put off for d plies. To convert is to leave the position's group by a winning irreversible
 * move (a capture or a goose's step forward) or to end the game; see volpe_solve.h. */
enum { VOLPE_DRAW = 0, VOLPE_LOSS = 128 };

static inline bool volpe_is_win(int v)
{
    return v > 0 && v < VOLPE_LOSS;
}
static inline bool volpe_is_loss(int v)
{
    return v >= VOLPE_LOSS;
}
/* The plies of a win or a loss (0 for a draw). */
static inline int volpe_dist(int v)
{
    return v >= VOLPE_LOSS ? v - VOLPE_LOSS : v;
}

/* A group: the positions whose geese stand n[y] to row y (0 = row 1), the fox on any empty
 * point, either side to move. Geese never step back, so a move leads into its own group (a
 * fox step, a goose's step sideways), into a group with as many geese further up, or into
 * one with fewer geese (a capture). */
typedef struct volpe_group {
    uint32_t code;  /* the profile's code, 0..VOLPE_PROFILES-1 */
    int n[VOLPE_ROWS];
    int count;      /* geese */
    int advance;    /* sum of the geese's rows: a step forward adds 1 */
    uint64_t size;  /* positions in the group */
} volpe_group;

/* The group of code (any code below VOLPE_PROFILES). */
volpe_group volpe_group_of(uint32_t code);
/* The code of the group of the given geese. */
uint32_t volpe_profile(uint64_t geese);
/* Writes the group's name ("g3370000", the geese per row from row 1) into buf (room 9). */
void volpe_group_name(const volpe_group *g, char *buf);
/* Whether group a can follow from group b by play (Hall's condition: for every row y, a has
 * no more geese in rows 1..y than b, since every goose of a came from one of b at its row or
 * below). A superset of the groups play reaches. */
bool volpe_group_below(const volpe_group *a, const volpe_group *b);

/* The rank of position (geese, fox, side) in its group, 0..size-1, and its inverse. */
uint64_t volpe_rank(uint64_t geese, int fox, int side);
void volpe_unrank(const volpe_group *g, uint64_t rank, uint64_t *geese, int *fox, int *side);

/* What a database depends on beyond the board's points: its lines, the blocked geese's rule
 * and the geese left when the fox has won (start geese - fox_wins_at). */
typedef struct volpe_db_key {
    int diagonals, blocked, threshold;
} volpe_db_key;

/* The key of rules r. */
volpe_db_key volpe_db_key_of(const volpe_rules *r);

/* A database directory open for reading and writing group files. */
typedef struct volpe_db volpe_db;

/* Opens directory dir (creating it if create) for databases of key; NULL with a line in err
 * if it cannot be made or read. */
volpe_db *volpe_db_open(const char *dir, volpe_db_key key, bool create, char *err,
                        size_t errlen);
void volpe_db_close(volpe_db *db);
/* The directory db reads. */
const char *volpe_db_dir(const volpe_db *db);

/* How a group's file stands. */
typedef enum volpe_file_state {
    VOLPE_FILE_OK,
    VOLPE_FILE_MISSING,
    VOLPE_FILE_BAD,   /* wrong size, header or checksum: not trusted */
    VOLPE_FILE_OTHER, /* a database of other rules (volpe_db_key) */
} volpe_file_state;

/* Checks group g's file: with `full`, reads it whole and checks the checksum; otherwise only
 * its size and header. Writes a reason into err when not VOLPE_FILE_OK. */
volpe_file_state volpe_db_check(volpe_db *db, const volpe_group *g, bool full, char *err,
                                size_t errlen);

/* The values of group g, loaded (and checked in full) on first use and kept until
 * volpe_db_trim drops them; NULL, with the reason in err, if the file is missing or not
 * trusted. Safe from several threads at once. */
const uint8_t *volpe_db_get(volpe_db *db, const volpe_group *g, char *err, size_t errlen);

/* Writes group g's values (g->size bytes) into its file, atomically (a temporary file
 * renamed); -1 with a line in err on failure. The values are kept as if loaded. */
int volpe_db_put(volpe_db *db, const volpe_group *g, uint8_t *values, char *err,
                 size_t errlen);

/* Drops the least recently used groups until at most max_bytes of values stay loaded. Call
 * it only while no pointer volpe_db_get returned is in use. */
void volpe_db_trim(volpe_db *db, uint64_t max_bytes);

/* Bytes of values loaded now. */
uint64_t volpe_db_loaded(const volpe_db *db);

/* The value of position (geese, fox, side) for the side to move; positions with threshold
 * geese or fewer are the fox's wins (the geese to move have lost: VOLPE_LOSS). -1, with the
 * reason in err, if its group is not available. */
int volpe_db_value(volpe_db *db, uint64_t geese, int fox, int side, char *err,
                   size_t errlen);

/* The database the perfect bot plays from (--db=DIR): set once by the command line before
 * any bot is set up; volpe_db_shared opens it on first use, making it if `create` (NULL,
 * with a line, if none was named or it cannot be read). */
void volpe_db_set_dir(const char *dir);
volpe_db *volpe_db_shared(volpe_db_key key, bool create, char *err, size_t errlen);

#endif
