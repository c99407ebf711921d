/* report_html.h — a report as one self-contained HTML5 page: the summary tables and the
 * plots inline as SVG, no network needed. */
#ifndef GIOCHI_REPORT_HTML_H
#define GIOCHI_REPORT_HTML_H

#include <stdio.h>

#include <cjson/cJSON.h>

/* Writes report r (a report_build tree) as an HTML5 page: the title, the summary of
 * report_summary_build as tables, and the charts of plot_render as inline SVG (a note in
 * their place when gnuplot is missing or fails). Write errors show in ferror(f). */
void report_html_write(FILE *f, const cJSON *r);

#endif
