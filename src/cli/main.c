/* main.c — giochi-sim's entry point: reads the options, sets the run up and hands it to its
 * mode (cli/job.h). */
#include <stdio.h>
#include <stdlib.h>

#include <argp.h>
#include <gsl/gsl_errno.h>

#include "cli/fail.h"
#include "cli/job.h"
#include "cli/options.h"
#include "dist/dist.h"

/* Plays the run set up in j in its mode, then gives the chosen seed (if any). */
static void play(job *j)
{
    const options *o = j->o;
    if (dist_distributor())
        run_set_distributor(dist_distributor());
    if (j->experiment)
        mode_experiment(j);
    else if (o->trace)
        mode_trace(j);
    else
        mode_run(j);
    /* Provenance: a chosen seed repeats the run. Said once the report is complete, so that a
     * failed run still says one line only (its error). */
    if (dist_rank() == 0 && !o->seed && !o->quiet)
        fprintf(stderr, "giochi-sim: seed %llu (repeat with --seed=%llu)\n",
                (unsigned long long)j->cfg.seed, (unsigned long long)j->cfg.seed);
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    argp_err_exit_status = EXIT_USAGE;
    dist_start(&argc, &argv);
    xalloc_json_hooks();
    static options o; /* static: what it points to stays reachable until exit */
    static job j;
    options_parse(&o, argc, argv);
    if (o.completion)
        mode_completion(&o, argc, argv);
    j.o = &o;
    j.argc = argc;
    j.argv = argv;
    if (o.merge) {
        merge_read(&o, &j.merge);
        die_about(o.parts[0]); /* the game and the ruleset its identity names */
    }
    job_game(&j);
    job_rules(&j);
    die_about(NULL);
    if (o.perft)
        mode_perft(&j);
    if (o.replay)
        mode_replay(&j);
    if (o.solve_geese && !o.solve)
        die(EXIT_USAGE, "--solve-geese needs --solve=DIR");
    if ((o.prove_nodes || o.prove_mb || o.prove_guess) && !o.prove)
        die(EXIT_USAGE, "--prove-nodes, --prove-mb and --prove-guess need --prove");
    if (o.prove)
        mode_prove(&j);
    if (o.solve)
        mode_solve(&j);
    job_check(&j);
    /* --list and --print-ruleset print only once every option has been checked. */
    if (o.list || o.print_ruleset)
        mode_print(j.g, &o, j.ruleset);
    job_prepare(&j);
    if (!o.trace || dist_rank() == 0) /* rank 0 alone traces */
        play(&j);
    cJSON_Delete(j.ruleset);
    free(j.rules);
    return EXIT_OK;
}
