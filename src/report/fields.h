/* fields.h — reading the report tree, for every renderer (text, CSV, HTML, plots, experiments). */
#ifndef GIOCHI_FIELDS_H
#define GIOCHI_FIELDS_H

#include <cjson/cJSON.h>

/* Member `key` of o as a number; NAN if absent or not a number (o may be NULL). */
double report_num(const cJSON *o, const char *key);

/* Member `key` of o as a string; "" if absent or not a string (o may be NULL). Not a copy. */
const char *report_str(const cJSON *o, const char *key);

#endif
