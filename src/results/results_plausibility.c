/* results_plausibility: the words a measured figure carries when it is
 * above what its device's memory can deliver: the nominal DRAM peak, or
 * 1.5x the probe's memory plateau (results_plausibility.h). */
#include "results_plausibility.h"

#include <stdio.h>

/* "4.80 TB/s" or "136.5 GB/s" */
static void rate_words(char *buf, size_t n, double gbs)
{
    if (gbs >= 1000)
        snprintf(buf, n, "%.2f TB/s", gbs / 1000.0);
    else
        snprintf(buf, n, "%.1f GB/s", gbs);
}

const char *results_nominal_plausibility(double gbs, double nominal_gbs, char *buf, size_t n)
{
    if (!(nominal_gbs > 0) || !(gbs > nominal_gbs))
        return NULL;
    char peak[32];
    rate_words(peak, sizeof peak, nominal_gbs);
    snprintf(buf, n, "above the device's nominal %s: cache or compression?", peak);
    return buf;
}

const char *results_plateau_plausibility(double gbs, double plateau_gbs, const char *date, char *buf, size_t n)
{
    if (!(plateau_gbs > 0) || !(gbs > RESULTS_PLATEAU_FACTOR * plateau_gbs))
        return NULL;
    char rate[32];
    rate_words(rate, sizeof rate, plateau_gbs);
    snprintf(buf, n, "above %.1fx the probe's memory plateau of %s%s%s%s: cache or compression?",
             RESULTS_PLATEAU_FACTOR, rate, date ? " (" : "", date ? date : "", date ? ")" : "");
    return buf;
}

const char *results_figure_plausibility(double gbs, double nominal_gbs, double plateau_gbs, const char *date, char *buf,
                                       size_t n)
{
    const char *w = results_nominal_plausibility(gbs, nominal_gbs, buf, n);
    return w ? w : results_plateau_plausibility(gbs, plateau_gbs, date, buf, n);
}

