/* configs.h — the built-in default rulesets: configs/<game>.json embedded at build time by
 * tools/embed.sh, byte for byte. A game references only its own. */
#ifndef GIOCHI_CONFIGS_H
#define GIOCHI_CONFIGS_H

extern const char config_45_json[];
extern const char config_oca_json[];
extern const char config_pig10_json[];
extern const char config_wari_json[];
extern const char config_cinesi_json[];
extern const char config_volpe_json[];

#endif
