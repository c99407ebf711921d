/* random_bot.c — a minimal giochi-sim bot client in C (giochi-sim-bots(7)): answers the
 * handshake, reseeds from each game's "start" seed and picks a legal action at random.
 * Needs nothing beyond the C library; reads just enough of each message to count the
 * actions, so it also serves as the protocol's speed benchmark (make bench).
 *     cc -O2 -o random_bot random_bot.c
 *     giochi-sim --bot-program rnd=./random_bot --game=wari --bots=rnd,greedy */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The unsigned number after `key` in line, or 0. */
static uint64_t number_after(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* The number of actions of a "decide" message: the "code" keys before its "view". */
static int count_actions(const char *line)
{
    const char *view = strstr(line, "\"view\":");
    int n = 0;
    for (const char *p = strstr(line, "\"code\":"); p && (!view || p < view);
         p = strstr(p + 7, "\"code\":"))
        n++;
    return n;
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    uint64_t state = 1;
    while (getline(&line, &cap, stdin) > 0) {
        if (strstr(line, "\"type\":\"decide\"")) {
            int n = count_actions(line);
            state ^= state << 13; /* xorshift64 */
            state ^= state >> 7;
            state ^= state << 17;
            printf("%d\n", n > 0 ? (int)(state % (uint64_t)n) : 0);
            fflush(stdout);
        } else if (strstr(line, "\"type\":\"start\"")) {
            state = number_after(line, "\"seed\":") | 1;
        } else if (strstr(line, "\"type\":\"hello\"")) {
            fputs("{\"type\":\"ready\"}\n", stdout);
            fflush(stdout);
        } else if (strstr(line, "\"type\":\"bye\"")) {
            break;
        }
    }
    free(line);
    return 0;
}
