/* ruletext.h — the text of each loaded ruleset, kept by the address of its loaded struct, for
 * those below the configuration layer that must pass a ruleset on as JSON (bots outside the
 * process, src/bots/program.c). The configuration layer keeps it (rules_remember); core only
 * stores and hands back text, so a bot needs no call up into config/. */
#ifndef GIOCHI_RULETEXT_H
#define GIOCHI_RULETEXT_H

/* Keeps text (a string from malloc, taken over: freed by a later call for the same address) as
 * the JSON of the loaded ruleset at `rules`, replacing what was kept for that address.
 * Thread-safe. */
void ruletext_keep(const void *rules, char *text);

/* A copy of the text kept for rules (a new string the caller frees), or NULL. Thread-safe. */
char *ruletext_recall(const void *rules);

#endif
